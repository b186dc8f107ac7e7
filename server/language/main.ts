// Entry point of the bundled language server (dist/language-server.js).
console.error('The language server is not implemented yet.');
