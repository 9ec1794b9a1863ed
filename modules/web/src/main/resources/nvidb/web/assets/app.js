// nvidb queue web: a small page over /api/v1. Every value is put on the page as text
// (textContent, setAttribute), never as markup, so a job name like <script> stays a name.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_ROWS = 500;
let token = sessionStorage.getItem('nvidb-token');
let view = { name: 'overview' };
let stateFilter = '';
let textFilter = '';
let range = '1h';
let logTimer = null;

// The printed URL carries the token in its fragment (never sent to a server, never in a log):
// kept for this tab in sessionStorage (no cookie, so a forged cross-site form cannot act).
(function takeToken() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    token = decodeURIComponent(m[1]);
    sessionStorage.setItem('nvidb-token', token);
    history.replaceState(null, '', location.pathname + '#/');
  }
})();

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'onclick') e.addEventListener('click', v);
    else if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function say(text) { document.getElementById('message').textContent = text; }

async function get(path) {
  const headers = token ? { Authorization: 'Bearer ' + token } : {};
  const r = await fetch('/api/v1/' + path, { headers, cache: 'no-store' });
  const doc = await r.json();
  if (!r.ok) throw new Error(doc.error || ('HTTP ' + r.status));
  return doc;
}

async function act(path, body) {
  if (!token) { say('actions need the token: open the link nvidb queue web printed'); return null; }
  const r = await fetch('/api/v1/' + path, {
    method: 'POST', cache: 'no-store',
    headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body || {}),
  });
  const doc = await r.json().catch(() => ({}));
  say(r.ok ? path + ': done' : path + ': ' + (doc.error || 'HTTP ' + r.status));
  refresh();
  return doc;
}

function age(iso) {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 90) return Math.round(s) + 's';
  if (s < 5400) return Math.round(s / 60) + 'm';
  if (s < 172800) return Math.round(s / 3600) + 'h';
  return Math.round(s / 86400) + 'd';
}

function mib(n) { return n === null || n === undefined ? '?' : n >= 1024 ? (n / 1024).toFixed(1) + 'G' : n + 'M'; }

// Dispatch order: running first, then pending by priority (higher first), then by id; held last.
function dispatchOrder(jobs) {
  const rank = (j) => (j.state === 'running' ? 0 : j.held ? 2 : 1);
  return jobs.slice().sort((a, b) => rank(a) - rank(b) || (b.priority - a.priority) || (a.id - b.id));
}

function gpuRow(g) {
  const total = g.mem_total_mb || 0;
  const pct = (n) => (total > 0 ? Math.max(0, Math.min(100, 100 * n / total)) : 0);
  const bar = el('div', { class: 'gpu-bar', title: 'external ' + mib(g.external_mem_mb) + ' / reserved '
      + mib(g.reserved_mb) + ' / free ' + mib(g.free_mb) },
    el('div', { class: 'seg-external', style: null }),
    el('div', { class: 'seg-reserved' }),
    el('div', { class: 'seg-free' }));
  bar.children[0].style.width = pct(g.external_mem_mb) + '%';
  bar.children[1].style.width = pct(g.reserved_mb) + '%';
  bar.children[2].style.width = pct(g.free_mb) + '%';
  const info = [g.util_percent === null ? '?%' : g.util_percent + '%',
    g.temperature_c === null ? '' : g.temperature_c + '°C', g.attribution === 'blind' ? 'blind' : ''].join(' ');
  return el('div', { class: 'gpu', 'data-gpu': g.node + ':' + g.index },
    'GPU' + g.index, bar, mib(g.free_mb) + ' free · ' + info);
}

function nodeCard(n) {
  return el('div', { class: 'node-card' + (n.state === 'up' ? '' : ' down'), 'data-node': n.name },
    el('div', {}, el('strong', {}, n.name), ' ', el('span', { class: 'muted' },
      n.state + (n.enabled ? '' : ' · drained') + ' · seen ' + age(n.last_seen) + ' ago')),
    n.last_error ? el('div', { class: 'error' }, n.last_error) : null,
    ...n.gpus.map(gpuRow),
    el('div', {},
      el('button', { onclick: () => act('nodes/' + encodeURIComponent(n.name) + (n.enabled ? '/drain' : '/resume')) },
        n.enabled ? 'Drain' : 'Resume')));
}

function jobTable(jobs) {
  const rows = jobs.slice(0, MAX_ROWS).map((j) => el('tr', {
    class: 'job-row', 'data-job': j.id, onclick: () => { location.hash = '#/job/' + j.id; } },
  el('td', {}, j.id), el('td', { class: 'state-' + j.state }, j.state + (j.held ? ' (held)' : '')),
  el('td', { class: 'job-name' }, j.name || ''), el('td', {}, j.node ? j.node + ':' + (j.gpu_ids || []).join(',') : ''),
  el('td', {}, j.vram_mb ? mib(j.vram_mb) : ''), el('td', {}, age(j.created_at)),
  el('td', {}, j.progress !== null && j.progress !== undefined ? String(j.progress) : j.wait_reason || ''),
  el('td', {}, j.priority), el('td', {}, j.submitter || '')));
  return el('table', { id: 'jobs' },
    el('thead', {}, el('tr', {}, ...['id', 'state', 'name', 'node:GPUs', 'VRAM', 'age', 'progress', 'prio', 'submitter']
      .map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows));
}

// Each user's fair share and limits (queue status's users), when several people share the queue or limits apply.
function userTable(users) {
  const limits = (u) => Object.entries(u.limits || {}).filter(([, v]) => v !== null)
    .map(([k, v]) => k.replace('max_', '') + '≤' + (k === 'max_vram_mb' ? mib(v) : v)).join(' ');
  return el('table', { id: 'users' },
    el('thead', {}, el('tr', {}, ...['user', 'share', 'usage (GPU-h)', 'GPUs', 'running', 'pending', 'limits']
      .map((h) => el('th', {}, h)))),
    el('tbody', {}, ...users.map((u) => el('tr', { 'data-user': u.user },
      el('td', {}, u.user), el('td', {}, u.share + ' (' + Math.round(u.share_percent) + '%)'),
      el('td', {}, u.usage_gpu_hours.toFixed(1) + ' (' + Math.round(u.usage_percent) + '%)'),
      el('td', {}, u.running_gpus), el('td', {}, u.running), el('td', {}, u.pending), el('td', {}, limits(u) || '-')))));
}

async function overview() {
  const s = await get('status');
  const main = [];
  if (s.alerts.length) {
    main.push(el('div', { class: 'alerts', id: 'alerts' }, el('strong', {}, s.open_alerts + ' open alert(s)'),
      ...s.alerts.map((a) => el('div', { class: 'alert' }, '[' + a.severity + '] ' + a.title + ' ',
        el('button', { onclick: () => act('alerts/' + a.id + '/ack') }, 'Ack')))));
  }
  main.push(el('h2', {}, 'Nodes'), el('div', { class: 'cards', id: 'nodes' }, ...s.nodes.map(nodeCard)));
  let jobs = dispatchOrder(s.jobs.concat(s.held.filter((h) => !s.jobs.some((j) => j.id === h.id))));
  if (stateFilter) jobs = jobs.filter((j) => (stateFilter === 'held' ? j.held : j.state === stateFilter));
  if (textFilter) {
    const t = textFilter.toLowerCase();
    jobs = jobs.filter((j) => [j.name, j.command, j.submitter, j.node].join('\n').toLowerCase().includes(t));
  }
  const select = el('select', { id: 'state-filter' }, ...['', 'running', 'pending', 'held']
    .map((v) => el('option', { value: v }, v || 'all active')));
  select.value = stateFilter;
  select.addEventListener('change', () => { stateFilter = select.value; refresh(); });
  const text = el('input', { id: 'text-filter', placeholder: 'filter by name, command, submitter', value: textFilter });
  text.addEventListener('change', () => { textFilter = text.value; refresh(); });
  const counts = Object.entries(s.counts).map(([k, v]) => k + ' ' + v).join(' · ');
  main.push(el('h2', {}, 'Jobs ', el('span', { class: 'muted' }, counts)), el('div', { class: 'filters' }, select, text),
    jobTable(jobs), jobs.length > MAX_ROWS ? el('p', { class: 'muted' }, (jobs.length - MAX_ROWS)
      + ' more: narrow the filter') : null);
  if (s.recent.length) main.push(el('h2', {}, 'Recently finished'), jobTable(s.recent));
  const users = s.users || [];
  if (users.length > 1 || users.some((u) => Object.values(u.limits || {}).some((v) => v !== null))) {
    main.push(el('h2', {}, 'Users ', el('span', { class: 'muted' }, 'fair share: the next job comes from the user'
      + ' furthest below their share')), userTable(users));
  }
  return main;
}

function fields(obj, keys) {
  return el('dl', { class: 'fields' }, ...keys.flatMap((k) => [el('dt', {}, k),
    el('dd', { 'data-field': k }, obj[k] === null || obj[k] === undefined ? ''
      : typeof obj[k] === 'object' ? JSON.stringify(obj[k]) : String(obj[k]))]));
}

// What the job reserved, where that figure came from, and what the passes measured of it.
function memoryLine(j) {
  const size = (mb) => (mb === null || mb === undefined ? '-' : (mb / 1024).toFixed(1) + 'G');
  const parts = ['reserved ' + size(j.vram_mb) + (j.vram_source ? ' (' + j.vram_source.kind + ')' : ''),
    'peak ' + size(j.peak_vram_mb)];
  if (j.mean_util_percent !== null && j.mean_util_percent !== undefined) parts.push('mean utilisation ' + j.mean_util_percent + ' %');
  if (j.failure) parts.push('failure: ' + j.failure);
  return el('p', { id: 'job-memory' }, parts.join(' · '));
}

async function jobPage(id) {
  const j = await get('jobs/' + id);
  const keys = Object.keys(j).filter((k) => k !== 'events' && k !== 'result');
  const running = j.state === 'running' || j.state === 'pending';
  return [
    el('h2', {}, 'Job ' + j.id + ' ', el('span', { class: 'job-name' }, j.name || ''), ' ',
      el('span', { id: 'job-state', class: 'state-' + j.state }, j.state)),
    memoryLine(j),
    el('div', {},
      el('button', { id: 'cancel', onclick: () => { if (confirm('Cancel job ' + j.id + '?')) act('jobs/' + j.id + '/cancel'); } }, 'Cancel'),
      el('button', { id: 'requeue', onclick: () => act('jobs/' + j.id + '/requeue') }, 'Requeue'),
      el('button', { id: 'prio-up', onclick: () => act('jobs/' + j.id + '/priority', { value: '+1' }) }, 'Priority +1'),
      el('button', { id: 'prio-down', onclick: () => act('jobs/' + j.id + '/priority', { value: '-1' }) }, 'Priority −1')),
    el('h2', {}, 'stdout ', el('span', { class: 'muted' }, running ? '(following)' : '')),
    el('pre', { class: 'log', id: 'log-stdout' }),
    el('h2', {}, 'stderr'), el('pre', { class: 'log', id: 'log-stderr' }),
    el('h2', {}, 'Result'), el('pre', { id: 'result' }, j.result === null ? '(none)' : JSON.stringify(j.result, null, 2)),
    el('h2', {}, 'Fields'), fields(j, keys),
    el('h2', {}, 'Events'),
    el('table', { id: 'events' }, el('tbody', {}, ...j.events.map((e) => el('tr', {},
      el('td', {}, e.id), el('td', {}, e.ts), el('td', {}, e.kind), el('td', {}, e.message || ''))))),
  ];
}

async function followLogs(id) {
  for (const stream of ['stdout', 'stderr']) {
    const box = document.getElementById('log-' + stream);
    if (!box) return;
    try {
      const doc = await get('jobs/' + id + '/logs?stream=' + stream + '&tail=200');
      if (box.textContent !== doc.log) {
        const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
        box.textContent = doc.log;
        if (atEnd) box.scrollTop = box.scrollHeight;
      }
    } catch (e) {
      box.textContent = '(log unavailable: ' + e.message + ')';
    }
  }
}

async function lanes() {
  const doc = await get('lanes');
  if (!doc.lanes.length) return [el('p', { class: 'muted' }, 'No lanes.')];
  const keys = Object.keys(doc.lanes[0]).filter((k) => typeof doc.lanes[0][k] !== 'object' || doc.lanes[0][k] === null);
  return [el('table', { id: 'lanes' }, el('thead', {}, el('tr', {}, ...keys.map((k) => el('th', {}, k)))),
    el('tbody', {}, ...doc.lanes.map((l) => el('tr', {}, ...keys.map((k) => el('td', {}, l[k] === null ? '' : String(l[k])))))))];
}

// A stacked area plot (external / reserved / free memory) with utilisation as a line on top.
function gpuPlot(title, doc) {
  const W = 600, H = 120, span = { '1h': 3600, '1d': 86400, '7d': 604800 }[doc.range] * 1000;
  const end = Date.now(), x = (t) => (W * (Date.parse(t) - (end - span)) / span).toFixed(1);
  const s = doc.samples;
  const plot = svg('svg', { class: 'plot', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, 'data-points': s.length });
  const band = (lo, hi, cls) => {
    if (!s.length) return;
    const top = s.map((p) => x(p.at) + ',' + (H - H * hi(p)).toFixed(1));
    const bottom = s.slice().reverse().map((p) => x(p.at) + ',' + (H - H * lo(p)).toFixed(1));
    plot.append(svg('polygon', { class: cls, points: top.concat(bottom).join(' ') }));
  };
  const f = (p, n) => (p.total_mb > 0 ? n / p.total_mb : 0);
  band(() => 0, (p) => f(p, p.external_mb), 'seg-external');
  band((p) => f(p, p.external_mb), (p) => f(p, p.external_mb + p.reserved_mb), 'seg-reserved');
  band((p) => f(p, p.external_mb + p.reserved_mb), (p) => (p.total_mb > 0 ? 1 : 0), 'seg-free');
  const util = s.filter((p) => p.util_percent !== null);
  plot.append(svg('polyline', { class: 'util', fill: 'none', stroke: '#111', 'stroke-width': 1.5,
    points: util.map((p) => x(p.at) + ',' + (H - H * p.util_percent / 100).toFixed(1)).join(' ') }));
  for (const p of util) plot.append(svg('circle', { class: 'point', cx: x(p.at), cy: (H - H * p.util_percent / 100).toFixed(1), r: 1.5 }));
  return el('div', { class: 'plot-box' }, el('div', { class: 'plot-title' }, title + ' (memory: external / queue / free; line: utilisation)'), plot);
}

function queuePlot(doc) {
  const W = 600, H = 120, span = { '1h': 3600, '1d': 86400, '7d': 604800 }[doc.range] * 1000;
  const end = Date.now(), s = doc.samples;
  const max = Math.max(1, ...s.map((p) => p.pending + p.running));
  const plot = svg('svg', { class: 'plot', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, 'data-points': s.length });
  for (const [key, colour] of [['pending', '#6b7280'], ['running', '#2563eb']]) {
    plot.append(svg('polyline', { fill: 'none', stroke: colour, 'stroke-width': 1.5, points: s.map((p) =>
      (W * (Date.parse(p.at) - (end - span)) / span).toFixed(1) + ',' + (H - H * p[key] / max).toFixed(1)).join(' ') }));
  }
  return el('div', { class: 'plot-box' }, el('div', { class: 'plot-title' }, 'Queue depth (grey pending, blue running; at most '
    + max + '), longest wait ' + Math.max(0, ...s.map((p) => p.oldest_wait_s)) + ' s'), plot);
}

// What each user's jobs used over the range: GET /api/v1/usage, the document of queue usage --json.
function usageTable(doc) {
  const keys = ['jobs', 'gpu_hours', 'vram_gib_hours_reserved', 'vram_gib_hours_peak', 'idle_gpu_hours', 'energy_kwh'];
  const row = (name, r) => el('tr', {}, el('td', {}, name),
    ...keys.map((k) => el('td', {}, r[k] === null || r[k] === undefined ? '-' : String(r[k]))));
  return el('div', { class: 'plot-box' }, el('div', { class: 'plot-title' }, 'Usage by user since ' + doc.since),
    el('table', { id: 'usage' }, el('thead', {}, el('tr', {}, el('th', {}, 'user'), ...keys.map((k) => el('th', {}, k)))),
      el('tbody', {}, ...doc.rows.map((r) => row(r.key === null ? '-' : r.key, r)), row('total', doc.total))));
}

async function historyPage() {
  const s = await get('status');
  const buttons = ['1h', '1d', '7d'].map((r) => el('button', { id: 'range-' + r, onclick: () => { range = r; refresh(); } },
    r + (r === range ? ' ✓' : '')));
  const out = [el('div', {}, ...buttons), usageTable(await get('usage?by=user&since=' + range)),
    queuePlot(await get('history?range=' + range))];
  for (const n of s.nodes) {
    for (const g of n.gpus) {
      out.push(gpuPlot(n.name + ' GPU' + g.index + ' ' + (g.name || ''),
        await get('history?range=' + range + '&gpu=' + encodeURIComponent(n.name + ':' + g.index))));
    }
  }
  return out;
}

function parseRoute() {
  const h = location.hash.replace(/^#\/?/, '');
  const m = /^job\/(\d+)$/.exec(h);
  if (m) return { name: 'job', id: m[1] };
  if (h === 'lanes') return { name: 'lanes' };
  if (h === 'history') return { name: 'history' };
  return { name: 'overview' };
}

let busy = false, again = false;
async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    do {
      again = false;
      const v = view;
      let nodes;
      try {
        nodes = v.name === 'job' ? await jobPage(v.id) : v.name === 'lanes' ? await lanes()
          : v.name === 'history' ? await historyPage() : await overview();
      } catch (e) {
        nodes = [el('p', { class: 'error' }, e.message)];
      }
      if (v !== view) { again = true; continue; }
      const main = document.getElementById('main');
      const keep = {};
      for (const id of ['log-stdout', 'log-stderr']) { const b = document.getElementById(id); if (b) keep[id] = b.textContent; }
      main.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined));
      for (const [id, t] of Object.entries(keep)) { const b = document.getElementById(id); if (b) b.textContent = t; }
      if (v.name === 'job') followLogs(v.id);
    } while (again);
  } finally {
    busy = false;
  }
}

let pending = null;
function soon() { if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 100); }

function live() {
  const badge = document.getElementById('live');
  const src = new EventSource('/api/v1/stream' + (token ? '?access_token=' + encodeURIComponent(token) : ''));
  src.addEventListener('hello', () => { badge.textContent = 'live'; badge.className = 'live on'; });
  src.addEventListener('change', soon);
  src.addEventListener('pass', soon);
  src.onerror = () => { badge.textContent = 'reconnecting'; badge.className = 'live off'; };
}

function route() {
  view = parseRoute();
  clearInterval(logTimer);
  if (view.name === 'job') {
    const id = view.id;
    logTimer = setInterval(() => followLogs(id), 1000);
  }
  refresh();
}

window.addEventListener('hashchange', route);
document.getElementById('token-state').textContent = token ? 'token ✓' : 'read-only (no token)';
route();
live();
