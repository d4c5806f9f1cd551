import { installDefaultTrustedTypesPolicy } from './trusted-types';

// Before anything is loaded: every script the page adds goes through this policy.
installDefaultTrustedTypesPolicy();
// Named, so the server that draws a page can hint its files (chunk-groups.json).
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
