// Preloaded with `node --import`: `require('keytar')` fails as it does where npm could not build
// keytar (no compiler or no libsecret headers) and left it out of node_modules.
import Module from 'node:module';

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'keytar') {
    const error = new Error(`Cannot find module 'keytar'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
