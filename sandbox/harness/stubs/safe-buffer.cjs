'use strict';
// safe-buffer (string_decoder's dependency) is Buffer on any Node that has Buffer.alloc; in the realm, the realm's.
module.exports = require('buffer');
