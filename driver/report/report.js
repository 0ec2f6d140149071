/* SPDX-License-Identifier: MIT
 * report.js - the sections of `mrfuzz report` that come from what the runs left in the
 * build directory (driver/report_html.c inlines this file and the data as JSON): the
 * relations with their checks and kills, check's findings with their replay commands,
 * the sources of every file of the build with per-line coverage and the mutants on each
 * line (survivors marked), and the Mutation Testing Elements view when its bundle was
 * inlined. Plain DOM, no dependency: it runs whether or not the bundle is there.
 */
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('mrfuzz-data').textContent);
  /* A run's file (its own script element), or null with data[key + '_note'] saying why. */
  function run(key) {
    const e = document.getElementById('mrfuzz-' + key);
    if (!e) return null;
    try {
      return JSON.parse(e.textContent);
    } catch (err) {
      data[key + '_note'] = data[key + '_path'] + ' is not valid JSON (' + err.message + ')';
      return null;
    }
  }
  const check = run('check'); // `mrfuzz check`'s summary JSON
  const mte = run('score'); // Mutation Testing Elements JSON of `mrfuzz score`
  const coverage = run('coverage'); // per-line coverage of score's original run

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    return e;
  }
  function note(parent, id, text) {
    parent.append(el('p', { id: id, class: 'note' }, text));
  }
  const base = (p) => p.slice(p.lastIndexOf('/') + 1);
  const isTest = (id) => String(id).startsWith('test:'); // the project's tests, not relations
  // The same file under two spellings (absolute, relative to a build directory).
  const samePath = (a, b) => a === b || a.endsWith('/' + b) || b.endsWith('/' + a);

  /* The mutants of the score run, each with its file. */
  const mutants = [];
  for (const [file, res] of Object.entries((mte && mte.files) || {}))
    for (const m of res.mutants || []) mutants.push(Object.assign({ file: file }, m));

  /* ---- relations: text, what the last check did with each, the mutants each kills ---- */
  function relations() {
    const sec = document.getElementById('relations');
    const fn = check && (check.functions.find((f) => f.function === data.function) || check.functions[0]);
    const counts = {};
    for (const r of (fn && fn.relations) || []) counts[r.name] = r;
    if (!check) note(sec, 'check-none', 'No check results: ' + data.check_note);
    if (!mte) note(sec, 'score-none', 'No score results: ' + data.score_note);
    const t = el('table', { class: 'rels-all' });
    t.append(el('tr', {}, el('th', {}, 'relation'), el('th', {}, 'checked'), el('th', {}, 'skipped'),
      el('th', {}, 'violated'), el('th', {}, 'mutants killed')));
    const rels = data.relations.slice(); // and those the runs name that the file split missed
    const named = Object.keys(counts);
    for (const tf of Object.values((mte && mte.testFiles) || {}))
      for (const t of tf.tests || []) if (!isTest(t.id)) named.push(t.name);
    for (const name of named)
      if (!rels.some((r) => r.name === name)) rels.push({ name: name, text: '(not found in ' + data.mr + ')' });
    for (const r of rels) {
      const c = counts[r.name];
      const kills = mutants.filter((m) => (m.killedBy || []).includes(r.name));
      const row = el('tr', { class: 'rel', 'data-rel': r.name });
      const text = el('td', {}, el('pre', { class: 'rel-text' }, r.text));
      const num = (cls, v) => el('td', { class: cls }, v === undefined ? '-' : v);
      const killed = el('td', { class: 'killed' }, el('span', { class: 'nkilled' }, mte ? kills.length : '-'));
      if (kills.length) { // each a link to the mutant on its line in Sources
        const list = el('span', { class: 'kills' });
        kills.forEach((m, i) => list.append(i ? ' ' : '', el('a', { href: '#mutant-' + m.id }, '#' + m.id)));
        killed.append(': ', list);
      }
      row.append(text, num('checked', c && c.checked), num('skipped', c && c.skipped),
        num('violated', c && c.violated), killed);
      if (c && c.violated) row.classList.add('violated');
      t.append(row);
    }
    sec.append(t);
  }

  /* ---- the project's tests beside the relations (score -- TEST-COMMAND) ----
   * The user's tests are the testFiles entry whose ids are "test:NAME"; statusReason
   * starts with which side kills each mutant (rt/engine/score/score_report.c). */
  function tests() {
    const sec = document.getElementById('tests');
    const entry = Object.entries((mte && mte.testFiles) || {}).find(([, tf]) => (tf.tests || []).some((t) => isTest(t.id)));
    if (!entry)
      return note(sec, 'tests-none', 'No score with the project\'s tests in this build directory: run ' +
        'mrfuzz score with -- TEST-COMMAND.');
    const side = (m, s) => (m.statusReason || '').startsWith(s);
    const compared = mutants.filter((m) => ['killed only by the tests', 'killed only by the relations',
      'killed by the tests and the relations', 'survived the tests and the relations'].some((s) => side(m, s)));
    const byT = compared.filter((m) => side(m, 'killed only by the tests') || side(m, 'killed by the tests'));
    const byR = compared.filter((m) => side(m, 'killed only by the relations') || side(m, 'killed by the tests'));
    const both = compared.filter((m) => !side(m, 'survived'));
    const pct = (k) => compared.length ? (100 * k / compared.length).toFixed(1) + '%' : '-';
    sec.append(el('p', { class: 'tests-cmd' }, 'Tests: ', el('code', {}, entry[0]), ' (' + entry[1].tests.length +
      ' tests), on ' + compared.length + ' mutants.'));
    const t = el('table', { class: 'tests-scores' });
    t.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'killed'), el('th', {}, 'score')));
    for (const [name, k] of [['tests', byT], ['relations', byR], ['both', both]])
      t.append(el('tr', { 'data-side': name }, el('td', {}, name), el('td', { class: 'nkilled' }, k.length),
        el('td', { class: 'score' }, pct(k.length))));
    sec.append(t);
    for (const [title, cls, list] of [['Killed only by the relations', 'only-relations', byR.filter((m) => !byT.includes(m))],
      ['Killed only by the tests', 'only-tests', byT.filter((m) => !byR.includes(m))]]) {
      sec.append(el('h3', {}, title + ' (' + list.length + ')'));
      const ul = el('ul', { class: cls });
      for (const m of list)
        ul.append(el('li', { 'data-id': m.id }, el('a', { href: '#mutant-' + m.id }, '#' + m.id), ' ' + base(m.file) + ':' +
          m.location.start.line + ' ' + m.mutatorName + ': ' + (m.description || m.replacement) +
          ((m.killedBy || []).length ? ' (' + m.killedBy.map((k) => k.replace(/^test:/, 'test ')).join(', ') + ')' : '')));
      sec.append(ul);
    }
  }

  /* ---- findings: the reproducers and how to replay them ---- */
  function findings() {
    const sec = document.getElementById('findings');
    if (!check) return note(sec, 'findings-none', 'No check run in this build directory.');
    if (!check.findings.length)
      return note(sec, 'findings-none', 'The last check (' + check.mode + ', ' + check.executions +
        ' executions) found nothing.');
    const ul = el('ul', { class: 'findings' });
    for (const f of check.findings) {
      const li = el('li', { class: 'finding', 'data-relation': f.relation || '' });
      li.append(f.relation ? 'relation ' : 'the target failed (' + f.failure + ')',
        f.relation ? el('strong', {}, f.relation) : '', ' violated by ',
        el('code', { class: 'reproducer' }, f.file));
      if (f.replay) li.append(el('br'), 'replay: ', el('code', { class: 'replay' }, f.replay));
      ul.append(li);
    }
    sec.append(ul);
  }

  /* ---- sources: every file of the build, coverage and mutants per line ---- */
  function files() {
    const list = [];
    const add = (path, text) => {
      let f = list.find((x) => samePath(x.path, path));
      if (!f) list.push((f = { path: path, text: null, scored: null, lines: {}, mutants: [] }));
      if (f.text === null && typeof text === 'string' && text.length) f.text = text;
      return f;
    };
    for (const s of data.sources) add(s.path, s.text);
    for (const [p, res] of Object.entries((mte && mte.files) || {})) add(p, res.source).scored = res.source;
    for (const fn of (coverage && coverage.functions) || []) {
      const f = add(fn.file, null);
      for (const [line, n] of fn.lines) f.lines[line] = Math.max(f.lines[line] || 0, n);
    }
    for (const m of mutants) add(m.file, null).mutants.push(m);
    return list;
  }
  function sources() {
    const sec = document.getElementById('sources');
    if (!coverage) note(sec, 'coverage-none', 'No per-line coverage: ' + data.coverage_note);
    for (const f of files()) {
      const box = el('section', { class: 'file', 'data-file': f.path });
      const survived = f.mutants.filter((m) => m.status === 'Survived').length;
      box.append(el('h3', {}, base(f.path)), el('p', { class: 'file-sum' }, f.path + ': ' +
        f.mutants.length + ' mutants, ' + survived + ' survived'));
      if (f.scored !== null && f.text !== null && f.scored !== f.text)
        note(box, '', 'This file changed since the last score: its mutants and coverage are ' +
          'those of the version scored, on the lines they had then.');
      if (f.text === null) {
        note(box, '', 'The source could not be read.');
        sec.append(box);
        continue;
      }
      const t = el('table', { class: 'src' });
      f.text.split('\n').forEach((code, i) => {
        const ln = i + 1, n = f.lines[ln];
        const here = f.mutants.filter((m) => m.location.start.line === ln);
        const row = el('tr', { 'data-line': ln, class: n === undefined ? 'nocode' : n ? 'covered' : 'uncovered' });
        const marks = el('td', { class: 'marks' });
        for (const m of here)
          marks.append(el('span', { class: 'mutant ' + m.status.toLowerCase(), 'data-id': m.id, id: 'mutant-' + m.id,
            title: '#' + m.id + ' ' + m.mutatorName + ': ' + (m.description || m.replacement) + ' (' + m.status +
              ((m.killedBy || []).length ? ', killed by ' + m.killedBy.join(', ') : '') + ')' }, m.id));
        if (here.some((m) => m.status === 'Survived')) row.classList.add('has-survivor');
        row.append(el('td', { class: 'ln' }, ln), el('td', { class: 'cov' }, n === undefined ? '' : n), marks,
          el('td', {}, el('pre', {}, code)));
        t.append(row);
      });
      box.append(t);
      sec.append(box);
    }
  }

  /* ---- the Mutation Testing Elements view ---- */
  function deepText(node) { // the text of node and of the shadow roots below it
    let s = node.nodeType === Node.TEXT_NODE ? node.data : '';
    if (node.shadowRoot) s += deepText(node.shadowRoot);
    for (const k of node.childNodes) s += deepText(k);
    return s;
  }
  function mteView() {
    const status = document.getElementById('mte-status');
    const say = (state, text) => { status.dataset.state = state; status.textContent = text; };
    if (!mte) return say('unavailable', 'No Mutation Testing Elements view: ' + data.score_note);
    if (!data.mte_bundle) return say('unavailable', 'The Mutation Testing Elements view is unavailable: ' + data.mte_note);
    const app = document.querySelector('mutation-test-report-app');
    customElements.whenDefined('mutation-test-report-app').then(async () => {
      app.report = mte;
      await app.updateComplete;
      const want = Object.keys(mte.files).map(base);
      for (let i = 0; i < 100; i++) { // its children render after it: wait for a file's name
        const text = deepText(app);
        if (want.every((w) => text.includes(w))) {
          status.dataset.files = want.length;
          return say('rendered', 'Rendered by Mutation Testing Elements: ' + want.join(', ') + '.');
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      say('failed', 'The Mutation Testing Elements view did not show the report.');
    }).catch((e) => say('failed', 'The Mutation Testing Elements view failed: ' + e));
  }

  for (const part of [relations, tests, findings, sources, mteView]) {
    try {
      part();
    } catch (e) { // one broken part leaves the others standing
      document.body.append(el('p', { class: 'error' }, part.name + ': ' + e));
    }
  }
})();
