// Prints the elements parse5 (the HTML standard's parser, as browsers implement it) builds
// for each file given, one per line: FILE START END PARENT NAME, tab-separated, in UTF-8
// byte offsets, like examples/html_elements.rs. Elements the parser makes without a tag
// of their own (an implied <tbody>, a formatting element it reopens) have no location and
// are left out; their children count as their parent's.
'use strict';
const fs = require('fs');
const path = require('path');
const parse5 = require(path.join(__dirname, '..', 'js', 'node_modules', 'parse5'));

for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  // bytes[i]: the UTF-8 offset of the JS string index i.
  const bytes = new Array(text.length + 1);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    bytes[i] = at;
    const unit = text.charCodeAt(i);
    if (unit < 0x80) at += 1;
    else if (unit < 0x800) at += 2;
    else if (unit >= 0xd800 && unit < 0xdc00) at += 2; // half of a 4-byte character
    else if (unit >= 0xdc00 && unit < 0xe000) at += 2;
    else at += 3;
  }
  bytes[text.length] = at;
  const lines = [];
  const stack = [[parse5.parse(text, {sourceCodeLocationInfo: true}), -1]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop();
    let inner = parent;
    const where = node.sourceCodeLocation;
    if (node.tagName !== undefined && where && where.startTag) {
      const start = bytes[where.startOffset];
      lines.push(`${file}\t${start}\t${bytes[where.endOffset]}\t${parent}\t${node.tagName.toLowerCase()}`);
      inner = start;
    }
    const children = node.tagName === 'template' && node.content ? node.content.childNodes : node.childNodes || [];
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], inner]);
  }
  // One element per start: a reopened formatting element repeats its original's start.
  const seen = new Set();
  for (const line of lines) {
    const start = line.split('\t')[1];
    if (!seen.has(start)) console.log(line);
    seen.add(start);
  }
}
