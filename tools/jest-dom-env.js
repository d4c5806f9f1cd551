// Every jsdom test file. findBy*/waitFor wait up to 1 s by default; a lazily loaded page (a React.lazy chunk
// that jest transforms on first import) takes longer than that on a loaded 2-core CI machine.
const { configure } = require('@testing-library/dom');

configure({ asyncUtilTimeout: 5000 });
