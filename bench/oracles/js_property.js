#!/usr/bin/env node
// Structural oracles for the JavaScript benchmark: exit 0 iff the named property holds in
// the syntax tree (parsed with acorn, pinned in bench/js/package.json); a file that does not
// parse is never interesting.
//
// Usage: js_property.js PROPERTY ARGS... FILE
//   calls-within FN CALLEE   some function named FN (declaration, `var FN = function`,
//                            `FN: function` or `x.FN = function`) contains, at any depth, a
//                            call whose callee is CALLEE or ends in `.CALLEE`
//   nested-in OUTER INNER    a function named INNER is defined somewhere inside a function
//                            named OUTER
'use strict';
const fs = require('fs');
const path = require('path');
const acorn = require(path.join(__dirname, '..', 'js', 'node_modules', 'acorn'));

const args = process.argv.slice(2);
const file = args.pop();
const [property, ...params] = args;

let tree;
try {
  tree = acorn.parse(fs.readFileSync(file, 'utf8'), {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowHashBang: true,
  });
} catch (e) {
  process.exit(1);
}

// Every node below `root` (root included), without recursion on user data.
function* nodes(root) {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    yield node;
    for (const key of Object.keys(node)) {
      const value = node[key];
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (child && typeof child.type === 'string') {
          stack.push(child);
        }
      }
    }
  }
}

function isFunction(node) {
  return node && /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type);
}

function keyName(node) {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'Literal') return String(node.value);
  return undefined;
}

// Functions named `name`, whichever of the usual ways the name is given.
function functionsNamed(root, name) {
  const found = [];
  for (const node of nodes(root)) {
    if (isFunction(node) && node.id && node.id.name === name) {
      found.push(node);
    } else if (node.type === 'VariableDeclarator' && isFunction(node.init) && keyName(node.id) === name) {
      found.push(node.init);
    } else if (node.type === 'Property' && isFunction(node.value) && keyName(node.key) === name) {
      found.push(node.value);
    } else if (node.type === 'AssignmentExpression' && isFunction(node.right)) {
      const target = node.left.type === 'MemberExpression' ? node.left.property : node.left;
      if (keyName(target) === name) found.push(node.right);
    }
  }
  return found;
}

function calleeName(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed) return keyName(callee.property);
  return undefined;
}

let ok;
if (property === 'calls-within' && params.length === 2) {
  const [fn, callee] = params;
  ok = functionsNamed(tree, fn).some((f) =>
    [...nodes(f.body)].some((n) => n.type === 'CallExpression' && calleeName(n) === callee));
} else if (property === 'nested-in' && params.length === 2) {
  const [outer, inner] = params;
  ok = functionsNamed(tree, outer).some((f) => functionsNamed(f.body, inner).length > 0);
} else {
  console.error(`unknown property or wrong arguments: ${args.join(' ')}`);
  process.exit(2);
}
process.exit(ok ? 0 : 1);
