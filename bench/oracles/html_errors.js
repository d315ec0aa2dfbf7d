// Prints how many parse errors parse5 (the HTML standard's parser, as browsers implement
// it) reports for an HTML file: html_errors.js FILE. The bench counts a reduced HTML page
// as parsing when it has no more of them than its input had. parse5 reports the
// tokenizer's errors and some of tree construction's, not all of them.
'use strict';
const fs = require('fs');
const path = require('path');
const parse5 = require(path.join(__dirname, '..', 'js', 'node_modules', 'parse5'));

const [file] = process.argv.slice(2);
let errors = 0;
parse5.parse(fs.readFileSync(file, 'utf8'), {
  onParseError: () => {
    errors += 1;
  },
});
console.log(errors);
