/* global document */
// The console's charts: plain SVG drawn from the server's /metrics window and the page's session rows. No
// library, no inline style (the page's policy allows none): SVG presentation attributes only.
(() => {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const W = 360;
  const H = 110;
  const PAD = 24;
  const svg = (tag, attrs = {}, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const round = (n) => (n >= 100 ? Math.round(n) : n >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 100) / 100);

  /** A line per series over the window's buckets (value per second when `perSecond`). */
  function series(box, view, lines, perSecond, unit) {
    const slots = Math.max(1, Math.round(view.windowMs / view.bucketMs));
    const first = view.now - (view.now % view.bucketMs) - (slots - 1) * view.bucketMs;
    const scale = perSecond ? 1000 / view.bucketMs : 1;
    const values = lines.map(({ key }) => {
      const byAt = new Map(view.buckets.map((b) => [b.at, b[key] * scale]));
      return Array.from({ length: slots }, (_, i) => byAt.get(first + i * view.bucketMs) || 0);
    });
    const max = Math.max(1, ...values.flat());
    const x = (i) => PAD + (i * (W - PAD - 4)) / Math.max(1, slots - 1);
    const y = (v) => H - 14 - (v / max) * (H - 28);
    const parts = [
      svg('line', { x1: PAD, y1: y(0), x2: W - 4, y2: y(0), stroke: '#bbb' }),
      svg('text', { x: 2, y: y(max) + 4, 'font-size': 9, fill: '#6e6e73' }, String(round(max))),
      svg('text', { x: PAD, y: H - 2, 'font-size': 9, fill: '#6e6e73' }, `${Math.round(view.windowMs / 60000)} min ago`),
      svg('text', { x: W - 4, y: H - 2, 'font-size': 9, fill: '#6e6e73', 'text-anchor': 'end' }, 'now'),
    ];
    lines.forEach(({ key, color, label }, n) => {
      const total = view.buckets.reduce((sum, b) => sum + b[key], 0);
      const peak = Math.max(0, ...view.buckets.map((b) => b[key] * scale));
      parts.push(svg('polyline', {
        points: values[n].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
        fill: 'none', stroke: color, 'stroke-width': 1.5, 'data-series': key, 'data-total': total, 'data-peak': round(peak),
      }));
      parts.push(svg('text', { x: W - 4, y: 10 + n * 11, 'font-size': 10, fill: color, 'text-anchor': 'end' },
        `${label}: ${total} (peak ${round(peak)}${unit})`));
    });
    box.replaceChildren(...parts);
  }

  /** A horizontal bar per row: `value` drawn, `label` and `note` written, `data` set on the row's group. */
  function bars(box, rows, empty) {
    if (rows.length === 0) return box.replaceChildren(svg('text', { x: 4, y: 14, 'font-size': 11, fill: '#6e6e73' }, empty));
    const max = Math.max(1, ...rows.flatMap((r) => r.values.map((v) => v.value)));
    const rowH = 8 * rows[0].values.length + 8;
    box.setAttribute('viewBox', `0 0 ${W} ${Math.max(H, rows.length * rowH + 6)}`);
    box.replaceChildren(...rows.map((r, i) => {
      const g = svg('g', r.data);
      const top = 4 + i * rowH;
      g.append(svg('text', { x: 0, y: top + 9, 'font-size': 10, fill: '#1d1d1f' }, r.label));
      r.values.forEach((v, k) => {
        const width = Math.max(1, (v.value / max) * (W - 200));
        g.append(svg('rect', { x: 120, y: top + k * 8, width: width.toFixed(1), height: 7, fill: v.color }));
        g.append(svg('text', { x: 124 + width, y: top + k * 8 + 7, 'font-size': 9, fill: '#6e6e73' }, v.note));
      });
      return g;
    }));
  }

  /** Draws every chart: `view` from /metrics, `sessions` the page's rows, `machine` the workflow (or null). */
  function render(view, sessions, machine) {
    const $ = (id) => document.getElementById(id);
    series($('c-calls'), view, [
      { key: 'calls', color: '#0b57d0', label: 'calls/s' },
      { key: 'errors', color: '#c62828', label: 'errors/s' },
    ], true, '/s');
    series($('c-sessions'), view, [{ key: 'sessions', color: '#1a7f37', label: 'active sessions' }], false, '');
    bars($('c-latency'), view.tools.slice(0, 12).map((t) => ({
      label: `${t.tool} (${t.calls}${t.errors ? `, ${t.errors} err` : ''})`,
      data: { 'data-tool': t.tool, 'data-calls': t.calls, 'data-errors': t.errors, 'data-p50': t.p50, 'data-p99': t.p99 },
      values: [
        { value: t.p50, color: '#7aa7f0', note: `p50 ${round(t.p50)} ms` },
        { value: t.p99, color: '#0b57d0', note: `p99 ${round(t.p99)} ms` },
      ],
    })), 'No call in the window yet.');
    const counts = new Map();
    if (machine) for (const st of machine.states) counts.set(st.path, 0);
    for (const s of sessions.values()) {
      const state = s.state || (machine ? machine.initial : '');
      if (state) counts.set(state, (counts.get(state) || 0) + 1);
    }
    bars($('c-states'), [...counts].map(([state, count]) => ({
      label: state,
      data: { 'data-state': state, 'data-count': count },
      values: [{ value: count, color: '#a15c00', note: String(count) }],
    })), machine ? 'No session yet.' : 'No workflow gate on this server.');
  }

  globalThis.fusionCharts = { render };
})();
