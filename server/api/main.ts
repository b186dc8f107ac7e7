// Entry point of the bundled local API server (dist/api-server.js).
console.log('The local API server is not implemented yet.');
