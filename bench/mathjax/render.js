// Renders every <math> element of an XHTML/MathML file with MathJax (MathML input, SVG
// output) and prints one line per error. Exit status: 0 when some error message matches
// the regular expression given as the first argument (the "bug" still shows), 1 otherwise,
// so this script is a treereduce oracle: render.js REGEX FILE.
'use strict';
const fs = require('fs');
const {mathjax} = require('mathjax-full/js/mathjax.js');
const {MathML} = require('mathjax-full/js/input/mathml.js');
const {SVG} = require('mathjax-full/js/output/svg.js');
const {liteAdaptor} = require('mathjax-full/js/adaptors/liteAdaptor.js');
const {RegisterHTMLHandler} = require('mathjax-full/js/handlers/html.js');

const [pattern, file] = process.argv.slice(2);
const wanted = new RegExp(pattern);
const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);
const doc = mathjax.document('', {
  InputJax: new MathML({verify: {checkArity: true, checkAttributes: true}}),
  OutputJax: new SVG({fontCache: 'none'}),
});

// An attribute value's text: what the adaptor escaped (&amp; &lt; &gt; &quot;) unescaped.
function unescape(value) {
  const named = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};
  return value.replace(/&(amp|lt|gt|quot|apos);/g, (_, name) => named[name]);
}

const text = fs.readFileSync(file, 'utf8');
const errors = [];
for (const [math] of text.matchAll(/<(?:[A-Za-z_][\w.-]*:)?math[\s>][\s\S]*?<\/(?:[A-Za-z_][\w.-]*:)?math>|<(?:[A-Za-z_][\w.-]*:)?math\/>/g)) {
  try {
    const out = adaptor.outerHTML(doc.convert(math, {display: false}));
    // A thrown error is in data-mjx-error, a checkArity or checkAttributes verdict in
    // data-mjx-message; both come escaped as attribute values.
    for (const [, message] of out.matchAll(/data-mjx-(?:error|message)="([^"]*)"/g)) {
      errors.push(unescape(message));
    }
  } catch (e) {
    errors.push(String(e && e.message ? e.message : e));
  }
}
for (const e of errors) {
  console.log(e);
}
process.exit(errors.some((e) => wanted.test(e)) ? 0 : 1);
