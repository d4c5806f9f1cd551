// Jest stand-in for files webpack handles (CSS is extracted, SVG becomes a URL).
module.exports = 'asset-stub';
