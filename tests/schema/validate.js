#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// validate.js KIND FILE...: validates mrfuzz's reports against their published schemas.
//   sarif  SARIF 2.1.0 (the OASIS schema as @microsoft/jest-sarif ships it, draft-04)
//   mte    Mutation Testing Elements (mutation-testing-report-schema, draft-07)
//   yaml   YAML 1.2 (js-yaml): each file parsed, printed as one line of JSON on stdout
//          (fuzz-project's project.yaml and GitHub workflow, for the test to read)
// Exit 0: every file valid; 1: a file is invalid (its errors printed); 2: bad use.
'use strict';
const fs = require('fs');
const path = require('path');

const schemas = {
  sarif: () => {
    const Ajv04 = require('ajv-draft-04');
    const file = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
                           'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
    // unicodeRegExp off: the schema's language pattern is not a valid Unicode-mode RegExp
    return [new Ajv04({allErrors: true, strict: false, unicodeRegExp: false}), JSON.parse(fs.readFileSync(file, 'utf8'))];
  },
  mte: () => {
    const Ajv = require('ajv');
    return [new Ajv({allErrors: true, strict: false}),
            require('mutation-testing-report-schema/mutation-testing-report-schema.json')];
  },
};

const [kind, ...files] = process.argv.slice(2);
if ((!schemas[kind] && kind !== 'yaml') || files.length === 0) {
  console.error('usage: validate.js sarif|mte|yaml FILE...');
  process.exit(2);
}
if (kind === 'yaml') {
  const yaml = require('js-yaml');
  let bad = 0;
  for (const f of files) {
    try {
      console.log(JSON.stringify(yaml.load(fs.readFileSync(f, 'utf8'), {filename: f})));
    } catch (e) {
      console.error(`${f}: not YAML: ${e.message}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
}
const [ajv, schema] = schemas[kind]();
require('ajv-formats')(ajv);
const check = ajv.compile(schema);
let bad = 0;
for (const f of files) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch (e) {
    console.error(`${f}: not JSON: ${e.message}`);
    bad++;
    continue;
  }
  if (check(doc)) {
    console.log(`${f}: valid ${kind}`);
  } else {
    bad++;
    for (const e of check.errors.slice(0, 20))
      console.error(`${f}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
process.exit(bad ? 1 : 0);
