#!/usr/bin/env node
// usage: terser_crash.js FILE [module]
// Exit 0 iff terser 5.49.1 minify with compress throws "Cannot read properties of null
// (reading 'length')" with AST_DynamicImport._size in the stack (a real terser bug on
// `if (await import(x))`).
'use strict';
const terser = require(require('path').join(__dirname, '..', '..', 'js', 'node_modules', 'terser'));
const src = require('fs').readFileSync(process.argv[2], 'utf8');
terser.minify(src, { compress: true, mangle: false, module: process.argv[3] === 'module' }).then(
  () => process.exit(1),
  (e) => {
    if (process.env.DEBUG) console.error(e.stack);
    process.exit(e.message === "Cannot read properties of null (reading 'length')" &&
      /at AST_DynamicImport\._size /.test(e.stack) ? 0 : 1);
  });
