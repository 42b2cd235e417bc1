// History: a session of the GPU log, filtered by node, GPU, metric and time; a zoomable chart,
// a pinned snapshot of every GPU, the raw samples (sortable, as CSV) and the processes seen.
'use strict';

(() => {
  const { api, el, fillTable, time, duration, mib, numberOr, color, status, view } = nvidb;
  const $ = id => document.getElementById(id);
  const problem = $('history-problem');
  const sessionsTable = $('history-sessions');
  const nodePick = $('history-node');
  const gpuPick = $('history-gpu');
  const metricPick = $('history-metric');
  const fromInput = $('history-from');
  const toInput = $('history-to');
  const csvLink = $('history-csv');
  const chartBox = $('history-chart');
  const table = $('history-table');
  const PAGE = 100;

  const METRIC_LABELS = { util_percent: 'util %', mem_used_mb: 'memory used MiB', mem_util_percent: 'memory util %',
    temperature_c: 'temperature °C', power_w: 'power W' };

  const COLUMNS = [
    { key: 'at', label: 'time', format: r => time(r.at) },
    { key: 'node', label: 'node' },
    { key: 'gpu', label: 'GPU', num: true },
    { key: 'gpu_name', label: 'name' },
    { key: 'util_percent', label: 'util %', num: true },
    { key: 'mem_util_percent', label: 'mem util %', num: true },
    { key: 'mem_used_mb', label: 'mem used MiB', num: true },
    { key: 'mem_total_mb', label: 'mem total MiB', num: true },
    { key: 'temperature_c', label: 'temp °C', num: true },
    { key: 'power_w', label: 'power W', num: true, format: r => numberOr(r.power_w, 1) },
    { key: 'processes', label: 'procs', num: true },
  ];

  let sessions = [];
  let session = null;
  let rows = [];
  let sorted = [];
  let sort = { key: 'at', ascending: true };
  let page = 0;
  let plot = null;
  let started = false;

  function selectedQuery(extra) {
    const params = new URLSearchParams({ session: session.id });
    if (nodePick.value !== '') params.set('node', nodePick.value);
    if (gpuPick.value !== '') params.set('gpu', gpuPick.value);
    const from = inputSeconds(fromInput);
    const to = inputSeconds(toInput);
    if (from !== null) params.set('from', from);
    if (to !== null) params.set('to', to);
    for (const [key, value] of Object.entries(extra || {})) params.set(key, value);
    return params;
  }

  function inputSeconds(input) {
    if (!input.value) return null;
    const ms = new Date(input.value).getTime();
    return Number.isNaN(ms) ? null : ms / 1000;
  }

  async function loadSessions() {
    try {
      const doc = await api('/api/history/sessions');
      problem.hidden = true;
      sessions = doc.sessions;
      if (!session || !sessions.some(s => s.id === session.id)) session = sessions[0] || null;
      renderSessions();
      if (session) await choose(session);
      else showProblem('the GPU log at ' + doc.log + ' has no sessions yet');
    } catch (error) {
      showProblem(error.message);
    }
  }

  function showProblem(text) {
    problem.textContent = text;
    problem.hidden = false;
  }

  function renderSessions() {
    fillTable(sessionsTable, [
      { key: 'id', label: '#', num: true },
      { key: 'started_at', label: 'started', format: s => time(s.started_at) },
      { key: 'length', label: 'length', format: s => s.ended_at === null ? 'running or crashed' : duration(s.ended_at - s.started_at) },
      { key: 'nodes', label: 'nodes', format: s => s.nodes.join(', ') },
      { key: 'samples', label: 'samples', num: true },
      { key: 'failures', label: 'failures', num: true },
    ], sessions, { onRow: s => choose(s), selected: s => session && s.id === session.id });
  }

  async function choose(chosen) {
    session = chosen;
    renderSessions();
    nodePick.replaceChildren(el('option', { value: '' }, 'all'), ...chosen.nodes.map(n => el('option', { value: n }, n)));
    gpuPick.replaceChildren(el('option', { value: '' }, 'all'));
    fromInput.value = '';
    toInput.value = '';
    $('history-pinned').replaceChildren();
    await load(true);
  }

  async function load(fillGpus) {
    if (!session) return;
    const query = selectedQuery();
    csvLink.href = '/api/history/samples.csv?' + query;
    try {
      const doc = await api('/api/history/samples?' + query);
      rows = doc.samples;
      if (fillGpus) {
        const gpus = [...new Set(rows.map(r => r.gpu))].sort((a, b) => a - b);
        gpuPick.replaceChildren(el('option', { value: '' }, 'all'), ...gpus.map(g => el('option', { value: g }, String(g))));
      }
      $('history-count').textContent = rows.length + ' rows' + (doc.truncated ? ' (the first ' + doc.limit + ' only: narrow the time range)' : '');
      $('history-failures').replaceChildren(...doc.failures.map(f => el('div', {}, time(f.at) + ' ' + f.node + ': ' + f.failure)));
      page = 0;
      resort();
      drawChart();
      loadProcesses();
      status('');
    } catch (error) {
      status(error.message);
    }
  }

  async function loadProcesses() {
    const params = new URLSearchParams({ session: session.id });
    if (nodePick.value !== '') params.set('node', nodePick.value);
    try {
      const doc = await api('/api/history/processes?' + params);
      fillTable($('history-processes'), [
        { key: 'node', label: 'node' }, { key: 'gpu', label: 'GPU', num: true }, { key: 'pid', label: 'pid', num: true },
        { key: 'user', label: 'user' }, { key: 'name', label: 'name' },
        { key: 'first_seen', label: 'first seen', format: p => time(p.first_seen) },
        { key: 'last_seen', label: 'last seen', format: p => time(p.last_seen) },
        { key: 'peak_mem_mb', label: 'peak memory', num: true, format: p => mib(p.peak_mem_mb) },
        { key: 'command', label: 'command' },
      ], doc.processes);
    } catch (error) {
      status(error.message);
    }
  }

  function compare(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return a < b ? -1 : 1;
  }

  function resort() {
    const { key, ascending } = sort;
    sorted = rows.map((row, i) => [row, i]).sort((x, y) => {
      const order = compare(x[0][key], y[0][key]);
      return (ascending ? order : -order) || x[1] - y[1];
    }).map(pair => pair[0]);
    renderTable();
  }

  function renderTable() {
    const pages = Math.max(1, Math.ceil(sorted.length / PAGE));
    page = Math.min(page, pages - 1);
    fillTable(table, COLUMNS, sorted.slice(page * PAGE, (page + 1) * PAGE), {
      sort,
      onSort: key => {
        sort = { key, ascending: sort.key === key ? !sort.ascending : true };
        resort();
      },
    });
    $('history-page').textContent = 'page ' + (page + 1) + ' of ' + pages;
  }

  function seriesKeys() {
    const keys = [];
    const seen = new Set();
    for (const row of rows) {
      const key = row.node + '/' + row.gpu;
      if (!seen.has(key)) { seen.add(key); keys.push({ key, node: row.node, gpu: row.gpu }); }
    }
    return keys.sort((a, b) => compare(a.node, b.node) || a.gpu - b.gpu);
  }

  function drawChart() {
    const metric = metricPick.value;
    const keys = seriesKeys();
    const times = [...new Set(rows.map(r => r.at))].sort((a, b) => a - b);
    const slot = new Map(times.map((t, i) => [t, i]));
    const data = [times].concat(keys.map(() => new Array(times.length).fill(null)));
    const column = new Map(keys.map((k, i) => [k.key, i + 1]));
    for (const row of rows) data[column.get(row.node + '/' + row.gpu)][slot.get(row.at)] = row[metric];
    if (plot) { plot.destroy(); plot = null; }
    chartBox.replaceChildren();
    if (times.length === 0) {
      chartBox.append(el('div', { class: 'muted' }, 'no samples match'));
      return;
    }
    let down = null;
    plot = new uPlot({
      width: Math.max(400, chartBox.clientWidth || 800), height: 300,
      title: METRIC_LABELS[metric],
      scales: { x: { time: true } },
      cursor: { drag: { x: true, y: false, setScale: true } },
      series: [{}].concat(keys.map((k, i) => ({ label: k.node + ' GPU ' + k.gpu, stroke: color(i), width: 1.5, spanGaps: false }))),
      axes: [{}, { size: 60 }],
      hooks: {
        ready: [u => {
          u.over.addEventListener('mousedown', e => { down = [e.clientX, e.clientY]; });
          u.over.addEventListener('click', e => {
            const moved = down && Math.abs(e.clientX - down[0]) + Math.abs(e.clientY - down[1]) > 3;
            down = null;
            if (!moved && u.cursor.idx !== null && u.cursor.idx !== undefined) pin(u.data[0][u.cursor.idx]);
          });
          u.over.addEventListener('wheel', e => { e.preventDefault(); pan(e.deltaY > 0 ? 0.2 : -0.2); }, { passive: false });
        }],
      },
    }, data, chartBox);
  }

  function pan(fraction) {
    if (!plot) return;
    const { min, max } = plot.scales.x;
    const shift = (max - min) * fraction;
    plot.setScale('x', { min: min + shift, max: max + shift });
  }

  function resetZoom() {
    if (!plot) return;
    const xs = plot.data[0];
    plot.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
  }

  /** Shows every GPU of the session at the snapshot taken at {@code at}. */
  async function pin(at) {
    // "to" is exclusive: one millisecond past the snapshot.
    const params = new URLSearchParams({ session: session.id, from: at, to: (Math.round(at * 1000) + 1) / 1000 });
    try {
      const doc = await api('/api/history/samples?' + params);
      $('history-pinned').replaceChildren(
        el('h2', {}, 'Snapshot at ' + time(at) + ' ', el('span', { class: 'muted' }, '(every GPU of the session)')),
        el('table', { class: 'grid', id: 'history-pinned-table' }));
      fillTable($('history-pinned-table'), COLUMNS, doc.samples);
    } catch (error) {
      status(error.message);
    }
  }

  $('history-apply').addEventListener('click', () => load(false));
  nodePick.addEventListener('change', () => load(false));
  gpuPick.addEventListener('change', () => load(false));
  metricPick.addEventListener('change', drawChart);
  $('history-pan-left').addEventListener('click', () => pan(-0.5));
  $('history-pan-right').addEventListener('click', () => pan(0.5));
  $('history-zoom-reset').addEventListener('click', resetZoom);
  $('history-prev').addEventListener('click', () => { page = Math.max(0, page - 1); renderTable(); });
  $('history-next').addEventListener('click', () => { page += 1; renderTable(); });

  view('history', {
    start() { if (!started) { started = true; loadSessions(); } },
    stop() {},
  });

  // For tests and for a person at the console: what the page holds now.
  window.nvidbHistory = { rows: () => rows, sorted: () => sorted, pin, load, ready: () => started,
    xRange: () => plot ? [plot.scales.x.min, plot.scales.x.max] : null };
})();
