#!/usr/bin/env node
// usage: oldparse.js PARSER script|module FILE MSG_REGEX [TOKEN]
// Exit 0 iff FILE is valid modern JS (acorn 8, ecmaVersion latest) AND the old PARSER
// rejects it with an error whose message matches MSG_REGEX and whose position in the
// source starts with TOKEN (when given).
'use strict';
const fs = require('fs');
const path = require('path');
// bench/field/node_modules (the old parsers) and bench/js/node_modules (acorn 8)
const NM = path.join(__dirname, '..', 'node_modules') + path.sep;
const B = path.join(__dirname, '..', '..', 'js', 'node_modules') + path.sep;
const [parser, mode, file, msgRe, token] = process.argv.slice(2);
const src = fs.readFileSync(file, 'utf8');
try {
  require(B + 'acorn').parse(src, { ecmaVersion: 'latest', sourceType: mode });
} catch (e) { process.exit(1); }
let err = null;
try {
  switch (parser) {
    case 'acorn5': require(NM + 'acorn5').parse(src, { ecmaVersion: 2018, sourceType: mode }); break;
    case 'acorn7': require(NM + 'acorn7').parse(src, { ecmaVersion: 2020, sourceType: mode }); break;
    case 'esprima': {
      const e = require(NM + 'esprima');
      mode === 'module' ? e.parseModule(src) : e.parseScript(src);
      break;
    }
    case 'babel70': require(NM + '@babel/parser').parse(src, { sourceType: mode }); break;
    case 'uglify3': {
      const r = require(NM + 'uglify-js').minify(src, { compress: false, mangle: false });
      if (r.error) throw r.error;
      break;
    }
    case 'uglify2': require(NM + 'uglify2').parse(src); break;
    default: console.error('unknown parser ' + parser); process.exit(2);
  }
} catch (e) { err = e; }
if (!err) process.exit(1);
const msg = String(err.description || err.message);
const pos = err.index !== undefined ? err.index : err.pos;
if (process.env.DEBUG) console.error(parser, JSON.stringify(msg), pos, JSON.stringify(src.slice(pos, pos + 20)));
if (!new RegExp(msgRe).test(msg)) process.exit(1);
if (token && !(typeof pos === 'number' && src.startsWith(token, pos))) process.exit(1);
process.exit(0);
