/* global location, URLSearchParams, document, EventSource, setTimeout, setInterval, fetch */
// The dev console's page: plain JavaScript, no build, no CDN. Every text from the server is set with
// textContent (an agent's text is data, never markup).
(() => {
  'use strict';
  // The page's one source of time: nothing else in this file reads the clock or sets a timer
  // (test/package/noGlobalTimers.test.ts).
  const pageClock = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    setInterval: (fn, ms) => setInterval(fn, ms),
  };
  const base = location.pathname.replace(/\/$/, '');
  const token = new URLSearchParams(location.search).get('token') || '';
  const q = (route, params = {}) => `${base}${route}?${new URLSearchParams({ token, ...params })}`;
  const $ = (id) => document.getElementById(id);
  const MAX = 5000;
  let events = [];
  let sessions = new Map();
  /** Task rows as the server keeps them (bounded by its own cap), by task id. */
  const tasks = new Map();
  let machine = null;
  let selected = '';
  let source;
  let older = 0;

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'text') node.textContent = v;
      else if (k.startsWith('data-') || k === 'class' || k === 'title' || k === 'href') node.setAttribute(k, v);
      else node[k] = v;
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  };
  const short = (key) => (key && key.length > 14 ? `${key.slice(0, 12)}…` : key || '');
  const age = (at) => {
    const s = Math.max(0, Math.round((pageClock.now() - at) / 1000));
    return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${s % 60}s` : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
  };
  const bytes = (n) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} B`);
  const joined = (v) => (Array.isArray(v) ? v.join(', ') : String(v || ''));
  const time = (at) => new Date(at).toISOString().slice(11, 23);
  // The server sends envelopes ({ seq, at, instance, event }); the page works on flat events.
  const flat = (entry) => Object.assign({}, entry.event, { seq: entry.seq, at: entry.at, instance: entry.instance, cut: entry.cut });

  let hub = '';
  let maxSessions = 1000;
  let sessionsDirty = false;
  /** Rows in the timeline's DOM at most: a window over the events, moved by "newer" and "older". */
  const WINDOW = 150;
  let offset = 0;
  let matching = 0;
  let received = 0;
  let skippedTotal = 0;

  function connect() {
    source = new EventSource(q('/events'));
    source.addEventListener('snapshot', (m) => {
      const snap = JSON.parse(m.data);
      // The same server again: what it sends from `from` on replaces what the page has from there. Another (a
      // restart): keep what the page shows, marked, then what the new one kept.
      if (snap.hub === hub) events = events.filter((e) => e.seq < snap.from || e.type === 'marker');
      else if (events.length > 0) events.push(marker('— reconnected (the server may have restarted) —'));
      hub = snap.hub;
      older = Math.max(0, snap.from - snap.oldest);
      maxSessions = snap.maxSessions;
      for (const s of snap.sessions) sessions.set(s.key, s);
      trimSessions();
      putTasks(snap.tasks);
      machine = snap.machine;
      setStatus('live');
      renderAll();
    });
    source.addEventListener('skipped', (m) => {
      const { skipped, sessions: rows, tasks: taskRows } = JSON.parse(m.data);
      for (const s of rows) sessions.set(s.key, s);
      putTasks(taskRows);
      trimSessions();
      sessionsSoon();
      const e = marker(`— ${skipped} events skipped (this page fell behind; the server did not wait for it) —`);
      skippedTotal += skipped;
      inbox.push(e);
      drain();
    });
    source.onmessage = (m) => {
      const batch = JSON.parse(m.data);
      for (const s of batch.sessions) sessions.set(s.key, s);
      trimSessions();
      if (putTasks(batch.tasks)) sessionsSoon();
      inbox.push(...batch.events.map(flat));
      drain();
      if (batch.sessions.length > 0) sessionsSoon();
    };
    source.onerror = () => {
      setStatus('reconnecting');
      // EventSource retries by itself, unless the server answered with an error status: then start over.
      if (source.readyState === EventSource.CLOSED) pageClock.setTimeout(connect, 1000);
    };
  }

  /** Task rows from the server, the page keeping as many as the server does; true when some came. */
  function putTasks(rows) {
    if (!Array.isArray(rows) || rows.length === 0) return false;
    for (const t of rows) { tasks.delete(t.id); tasks.set(t.id, t); }
    while (tasks.size > maxSessions) tasks.delete(tasks.keys().next().value);
    return true;
  }

  /** The page lists as many sessions as the server does (its own cap), the least recently seen leaving first. */
  function trimSessions() {
    if (sessions.size <= maxSessions) return;
    const rows = [...sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen);
    for (const s of rows.slice(0, sessions.size - maxSessions)) sessions.delete(s.key);
  }

  // Events wait here and are drawn STEP at a time, one task each: a large message never blocks the page long.
  const inbox = [];
  const STEP = 100;
  let draining = false;
  function drain() {
    if (draining) return;
    draining = true;
    const step = () => {
      add(inbox.splice(0, STEP));
      if (inbox.length > 0) pageClock.setTimeout(step, 0);
      else draining = false;
    };
    step();
  }

  const marker = (text) => ({ type: 'marker', text, at: pageClock.now(), seq: 0, instance: '' });

  /** New events: kept (the latest MAX), and shown on top when they match the filters (the DOM keeps a window of WINDOW rows). */
  function add(list) {
    received += list.length;
    events.push(...list);
    if (events.length > MAX) events.splice(0, events.length - MAX);
    const f = filterNow();
    const shown = list.filter((e) => matches(e, f));
    matching += shown.length;
    // Looking at older rows: the window stays on them. At the top: the new rows come in, the oldest leave.
    if (offset > 0) offset += shown.length;
    else if (shown.length > 0) {
      const timeline = $('timeline');
      timeline.prepend(...shown.slice(-WINDOW).reverse().map(row));
      while (timeline.childElementCount > WINDOW) timeline.lastElementChild.remove();
    }
    renderCount();
  }

  function sessionsSoon() {
    if (sessionsDirty) return;
    sessionsDirty = true;
    pageClock.setTimeout(() => {
      sessionsDirty = false;
      renderSessions();
      renderTasks();
      renderDetail(false);
    }, 50);
  }

  function renderCount() {
    matching = Math.min(matching, events.length);
    const end = Math.max(0, matching - offset);
    const start = Math.max(0, end - WINDOW);
    $('count').textContent = `${events.length} events${older > 0 ? ` (${older} older ones kept by the server not loaded)` : ''}`;
    $('count').dataset.received = String(received);
    $('count').dataset.skipped = String(skippedTotal);
    $('window').textContent = matching === 0 ? '' : `showing ${start + 1}–${end} of ${matching} (newest first)`;
    $('newer').disabled = offset === 0;
    $('older').disabled = start === 0;
  }

  function setStatus(status) {
    $('status').dataset.status = status;
    $('status').textContent = status === 'live' ? 'live' : 'reconnecting…';
  }

  /** The filters as they stand, read once per render (the keys of the principal's sessions in a set). */
  function filterNow() {
    const p = $('f-principal').value;
    const keys = new Set();
    if (p) for (const r of sessions.values()) if (r.principal === p) keys.add(r.key);
    return { s: $('f-session').value, p, keys, t: $('f-tool').value.trim(), i: $('f-instance').value };
  }

  function matches(e, f = filterNow()) {
    if (e.type === 'marker') return true;
    if (f.i && e.instance !== f.i) return false;
    if (f.s && e.sessionId !== f.s && e.workflowKey !== f.s) return false;
    if (f.p && e.principal !== f.p && !(e.type !== 'result' && (f.keys.has(e.sessionId) || f.keys.has(e.workflowKey)))) return false;
    if (f.t && !String(e.tool || e.causedBy || '').includes(f.t)) return false;
    return true;
  }

  function kindOf(e) {
    if (e.type === 'result') return e.refused ? 'refused' : e.ok ? 'ok' : 'error';
    if (e.type === 'refusal' || e.type === 'error') return 'error';
    if (e.type === 'warning') return 'note';
    return 'info';
  }

  function summary(e) {
    switch (e.type) {
      case 'result': return `${e.tool} — ${e.refused ? 'refused' : e.ok ? 'ok' : 'error'} in ${Number(e.durationMs).toFixed(1)} ms`;
      case 'refusal': return `${e.tool} refused: ${e.reason === 'gate' ? `hidden in state "${e.state}"` : 'too many concurrent calls'}`;
      case 'transition': return `${e.machine}: ${e.from} → ${e.to} on ${e.event} (by ${e.tool})`;
      case 'invalidation': return `${e.causedBy} → ${joined(e.patterns)} → tools: ${joined(e.tools) || 'none'}; resources: ${joined(e.resources) || 'none'}`;
      case 'list_changed': return `notifications/tools/list_changed sent (${e.reason})`;
      case 'resources_updated': return `notifications/resources/updated ${joined(e.uris)} (${e.cause})`;
      case 'session': return `session ${short(e.sessionId)} ${e.phase} (${e.reason})`;
      case 'list': return `tools/list: ${e.count} tools`;
      case 'task': return `${e.tool} task ${short(e.taskId)}: ${e.status}${e.statusMessage ? ` — ${e.statusMessage}` : ''}${e.attempt ? ` (attempt ${e.attempt})` : ''}`;
      case 'task_progress': return `${e.tool} task ${short(e.taskId)}: ${e.progress}`;
      case 'warning': return e.message;
      case 'error': return `${e.message}: ${e.error && e.error.message}`;
      default: return e.type;
    }
  }

  function row(e) {
    if (e.type === 'marker') return el('li', { class: 'marker', 'data-type': 'marker', text: e.text });
    const who = e.sessionId || e.workflowKey ? `${e.workflowKey ? 'workflow' : 'session'} ${short(e.workflowKey || e.sessionId)}` : '';
    const li = el('li', { 'data-type': e.type, 'data-kind': kindOf(e), 'data-tool': e.tool || '' },
      el('span', { class: 'when', text: time(e.at) }),
      el('span', { class: 'type', text: e.type }),
      el('span', { class: 'summary', text: summary(e) }),
      el('span', { class: 'who', text: `${who}${e.principal ? ` · ${e.principal}` : ''}${e.instance ? ` · @${e.instance}` : ''}` }));
    if (e.type === 'result') {
      li.append(el('pre', { class: 'text', text: e.text }));
      // Built when opened: a row costs little until someone looks inside.
      const details = el('details', {}, el('summary', { text: 'arguments and stages' }));
      details.ontoggle = () => {
        if (!details.open || details.childElementCount > 1) return;
        details.append(el('pre', { text: typeof e.args === 'string' ? e.args : JSON.stringify(e.args, null, 2) }),
          el('div', { class: 'stages' }, ...(Array.isArray(e.stages) ? e.stages : []).map((s) => el('span', { text: `${s.stage} ${s.ms.toFixed(2)} ms` }))));
      };
      li.append(details);
      if (e.stack) li.append(el('pre', { class: 'stack', text: e.stack }));
    }
    if (e.cut) li.append(el('p', { class: 'cut', text: `cut by the console: this event was ${bytes(e.cut.bytes)} (it keeps a bounded size per event)` }));
    if (e.type === 'error' && e.error && e.error.stack) li.append(el('pre', { class: 'stack', text: e.error.stack }));
    return li;
  }

  /** The timeline is a window of at most WINDOW rows over the matching events: `offset` rows below the newest. */
  function renderTimeline() {
    const f = filterNow();
    const shown = events.filter((e) => matches(e, f));
    offset = Math.max(0, Math.min(offset, shown.length - WINDOW));
    const end = shown.length - offset;
    const start = Math.max(0, end - WINDOW);
    $('timeline').replaceChildren(...shown.slice(start, end).reverse().map(row));
    matching = shown.length;
    renderCount();
  }

  // One <tr> per session, kept: a render moves rows and changes the cells whose text changed, nothing more.
  const sessionRows = new Map();
  const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };

  function renderSessions() {
    const all = [...sessions.values()].sort((a, b) => b.lastSeen - a.lastSeen);
    // With a shared bus, every instance's sessions: the instance filter shows one's.
    const instance = $('f-instance').value;
    const rows = instance ? all.filter((s) => s.instance === instance) : all;
    const body = $('sessions').tBodies[0];
    const trs = rows.map((s) => {
      let tr = sessionRows.get(s.key);
      if (!tr) {
        tr = el('tr', { 'data-key': s.key }, el('td', { title: s.key }), el('td'), el('td'), el('td'), el('td'), el('td'));
        tr.onclick = () => select(s.key);
        sessionRows.set(s.key, tr);
      }
      const [key, principal, started, state, calls, where] = tr.cells;
      setText(where, s.instance ? `@${s.instance}${s.instance === hub ? ' (this)' : ''}` : '');
      tr.dataset.instance = s.instance || '';
      setText(key, `${s.kind === 'workflow' ? '⚙ ' : ''}${short(s.key)}`);
      setText(principal, s.principal || '');
      if (principal.title !== (s.principal || '')) principal.title = s.principal || '';
      setText(started, age(s.firstSeen));
      setText(state, s.state || (machine ? machine.initial : '—'));
      setText(calls, String(s.calls));
      tr.classList.toggle('selected', s.key === selected);
      return tr;
    });
    for (const key of sessionRows.keys()) if (!sessions.has(key)) sessionRows.delete(key);
    const order = Array.from(body.rows);
    if (order.length !== trs.length || trs.some((tr, i) => order[i] !== tr)) body.replaceChildren(...trs);
    fillSelect($('f-session'), rows.map((s) => s.key));
    fillSelect($('f-principal'), [...new Set(rows.map((s) => s.principal).filter(Boolean))]);
    fillSelect($('f-instance'), [...new Set([hub, ...all.map((s) => s.instance)].filter(Boolean))].sort());
  }

  function fillSelect(select, values) {
    // Rebuilt only when the choices change, so that an open list is not reset every second.
    const signature = values.join('\n');
    if (select.dataset.signature === signature) return;
    select.dataset.signature = signature;
    const current = select.value;
    select.replaceChildren(el('option', { value: '', text: 'all' }), ...values.map((v) => el('option', { value: v, text: short(v) })));
    select.value = values.includes(current) ? current : '';
  }

  function select(key) {
    selected = key;
    $('d-ptools').replaceChildren();
    renderSessions();
    renderDetail(true);
  }

  function renderDetail(refreshView) {
    const s = sessions.get(selected);
    $('detail').hidden = !s;
    if (!s) return;
    $('d-key').textContent = s.key;
    $('d-meta').textContent = `${s.kind === 'workflow' ? 'workflow instance' : 'legacy session'} · principal ${s.principal || 'unknown'} · age ${age(s.firstSeen)} · ${s.calls} calls${s.phase ? ` · ${s.phase}` : ''}`;
    $('d-export').href = q('/transcript', { key: s.key });
    renderMachine(s.state || (machine && machine.initial));
    if (refreshView) viewAs(s.key);
  }

  function renderMachine(current) {
    const box = $('machine');
    if (!machine) return box.replaceChildren(el('p', { text: 'No workflow gate on this server.' }));
    const active = new Set(String(current || '').split(' + ').flatMap((p) => p.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));
    box.replaceChildren(...machine.states.map((st) => {
      const edges = machine.transitions.filter((t) => t.from === st.path).map((t) => `${t.event} → ${t.to}`).join(', ');
      const node = el('div', { class: `state${active.has(st.path) ? ' current' : ''}`, 'data-state': st.path },
        el('div', { text: `${st.path}${st.final ? ' (final)' : ''}${st.tools.length ? ` — ${st.tools.join(', ')}` : ''}` }),
        edges ? el('div', { class: 'edges', text: edges }) : null);
      // Through the CSSOM: the page's policy allows no inline style attribute.
      node.style.marginLeft = `${st.depth * 1.2}em`;
      return node;
    }));
  }

  async function viewAs(key) {
    const response = await fetch(q('/view', { key }));
    const names = response.ok ? await response.json() : [];
    if (key === selected) $('d-tools').replaceChildren(...names.map((n) => el('li', { text: n })));
  }

  async function viewAsPrincipal() {
    const s = sessions.get(selected);
    if (!s || !s.principal) return $('d-ptools').replaceChildren(el('li', { text: 'no principal seen yet' }));
    const response = await fetch(q('/view', { principal: s.principal }));
    const names = response.ok ? await response.json() : [];
    $('d-ptools').replaceChildren(...names.map((n) => el('li', { text: n })));
  }

  async function loadSkills() {
    const response = await fetch(q('/skills'));
    const skills = response.ok ? await response.json() : [];
    $('skills').replaceChildren(...(skills.length === 0
      ? [el('p', { text: 'This server publishes no skill.' })]
      : skills.map((s) => el('details', { 'data-skill': s.name },
        el('summary', { text: `${s.name}: ${s.description}` }),
        el('pre', { text: s.markdown })))));
  }

  // One <tr> per task, kept like the session rows; the filters apply (a task's session, its tool).
  const taskRows = new Map();
  function renderTasks() {
    const f = filterNow();
    const shown = [...tasks.values()].reverse().filter((t) =>
      (!f.s || t.sessionId === f.s) && (!f.i || t.instance === f.i) && (!f.p || f.keys.has(t.sessionId)) && (!f.t || t.tool.includes(f.t)));
    const trs = shown.map((t) => {
      let tr = taskRows.get(t.id);
      if (!tr) {
        tr = el('tr', { 'data-task': t.id }, el('td', { title: t.id }), el('td'), el('td'), el('td'), el('td'), el('td'), el('td'));
        taskRows.set(t.id, tr);
      }
      const [id, tool, session, status, progress, attempt, instance] = tr.cells;
      setText(id, short(t.id));
      setText(tool, t.tool);
      setText(session, short(t.sessionId));
      setText(status, t.status);
      setText(progress, t.progress || t.statusMessage || '');
      setText(attempt, t.attempt === undefined || t.attempt === null ? '' : String(t.attempt));
      setText(instance, t.instance ? `@${t.instance}` : '');
      tr.dataset.status = t.status;
      return tr;
    });
    for (const id of taskRows.keys()) if (!tasks.has(id)) taskRows.delete(id);
    const body = $('tasks').tBodies[0];
    const order = Array.from(body.rows);
    if (order.length !== trs.length || trs.some((tr, i) => order[i] !== tr)) body.replaceChildren(...trs);
    $('task-count').textContent = `${shown.length} of ${tasks.size}`;
  }

  // The charts: the server's rolling window of calls (every instance's) and the page's own session rows.
  let ticks = 0;
  async function refreshCharts() {
    const response = await fetch(q('/metrics'));
    if (!response.ok || !globalThis.fusionCharts) return;
    const view = await response.json();
    globalThis.fusionCharts.render(view, sessions, machine);
    $('charts').dataset.at = String(view.now);
  }

  function renderAll() { void refreshCharts(); renderSessions(); renderTasks(); renderDetail(true); renderTimeline(); }

  const refilter = () => { offset = 0; renderTimeline(); renderTasks(); };
  for (const id of ['f-session', 'f-principal']) $(id).onchange = refilter;
  $('f-instance').onchange = () => { refilter(); renderSessions(); };
  $('f-tool').oninput = refilter;
  $('clear').onclick = () => { events = []; offset = 0; renderTimeline(); };
  $('newer').onclick = () => { offset = Math.max(0, offset - WINDOW); renderTimeline(); };
  $('older').onclick = () => { offset += WINDOW; renderTimeline(); };
  $('d-refresh').onclick = () => viewAs(selected);
  $('d-principal').onclick = viewAsPrincipal;
  pageClock.setInterval(() => { renderSessions(); if (selected) renderDetail(false); if (++ticks % 2 === 0) void refreshCharts(); }, 1000);
  void loadSkills();
  connect();
})();
