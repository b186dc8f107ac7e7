// `cev`: the command line face of the product.
const [command] = process.argv.slice(2);

switch (command) {
  case 'serve':
    console.log('cev serve: the local API server is not implemented yet.');
    break;
  default:
    console.error('usage: cev serve [options] | cev validate <file>...');
    process.exitCode = 2;
}
