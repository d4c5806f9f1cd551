import { installDefaultTrustedTypesPolicy } from './trusted-types';

// Before anything is loaded: every script the page adds goes through this policy.
installDefaultTrustedTypesPolicy();
import('./bootstrap');
