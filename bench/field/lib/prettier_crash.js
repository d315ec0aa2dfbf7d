#!/usr/bin/env node
// usage: prettier_crash.js FILE COMMENT_TEXT
// Exit 0 iff prettier 2.7.1 (parser babel) throws 'Comment "COMMENT_TEXT" was not printed.
// Please report this error!' from ensureAllCommentsPrinted.
'use strict';
const B = require('path').join(__dirname, '..', '..', 'js', 'node_modules', 'prettier') + '/';
const prettier = require(B + 'standalone.js');
const babel = require(B + 'parser-babel.js');
const src = require('fs').readFileSync(process.argv[2], 'utf8');
try {
  prettier.format(src, { parser: 'babel', plugins: [babel] });
} catch (e) {
  const want = 'Comment "' + process.argv[3] + '" was not printed. Please report this error!';
  if (process.env.DEBUG) console.error(e.stack);
  process.exit(e.message === want && /ensureAllCommentsPrinted/.test(e.stack) ? 0 : 1);
}
process.exit(1);
