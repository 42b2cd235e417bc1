// Live: every node's GPUs as the monitor probes them, with rolling charts kept in this page's memory.
'use strict';

(() => {
  const { api, el, fillTable, mib, numberOr, color, status, view, sharingLines } = nvidb;
  const remoteBox = document.getElementById('live-remote');
  const intervalPick = document.getElementById('live-interval');
  const windowPick = document.getElementById('live-window');
  const pauseButton = document.getElementById('live-pause');
  const updated = document.getElementById('live-updated');
  const nodesBox = document.getElementById('live-nodes');
  const capacityLine = document.getElementById('live-capacity');

  let remote = null;       // null until the server said its default
  let paused = false;
  let timer = null;
  let running = false;
  const cards = new Map(); // node name -> {root, table, util, mem, series: Map(gpu -> [times, util, mem])}

  const GPU_COLUMNS = [
    { key: 'index', label: 'GPU', num: true },
    { key: 'name', label: 'name' },
    { key: 'util_percent', label: 'util', num: true, format: g => numberOr(g.util_percent, undefined, '%') },
    { key: 'mem', label: 'memory used / total', num: true,
      format: g => g.mem_used_mb === null && g.mem_total_mb === null ? null : (mib(g.mem_used_mb) || '-') + ' / ' + (mib(g.mem_total_mb) || '-') },
    { key: 'temperature_c', label: 'temp', num: true, format: g => numberOr(g.temperature_c, undefined, '°C') },
    { key: 'power_w', label: 'power', num: true,
      format: g => g.power_w === null ? null : numberOr(g.power_w, 0, ' W') + (g.power_limit_w === null ? '' : ' / ' + numberOr(g.power_limit_w, 0, ' W')) },
    { key: 'processes', label: 'processes', num: true, format: g => g.processes.length },
    { key: 'claims', label: 'claimed by', format: g => (g.claims || []).map(c => c.text).join('; ') || null },
  ];


  function windowSeconds() { return Number(windowPick.value) * 60; }

  function chart(target, title, unit, gpus, range) {
    const width = Math.max(300, target.clientWidth || 500);
    return new uPlot({
      width, height: 180, title,
      scales: { x: { time: true }, y: range ? { range } : { auto: true } },
      series: [{}].concat(gpus.map((gpu, i) => ({ label: 'GPU ' + gpu, stroke: color(i), width: 1.5,
        value: (u, v) => v === null || v === undefined ? '-' : v.toFixed(unit === '%' ? 0 : 1) + ' ' + unit }))),
      axes: [{}, { label: unit, size: 50 }],
      legend: { live: true },
    }, [[]].concat(gpus.map(() => [])), target);
  }

  function card(node) {
    let entry = cards.get(node.node);
    const gpus = node.gpus.map(g => g.index);
    const key = gpus.join(',');
    if (entry && entry.key !== key && gpus.length > 0) {
      entry.root.remove();
      cards.delete(node.node);
      entry = null;
    }
    if (!entry) {
      const title = el('h3', {}, node.node, ' ', el('span', { class: 'muted' }));
      const line = el('div', { class: 'failure' });
      const sharing = el('div', { class: 'sharing muted' });
      const table = el('table', { class: 'grid' });
      const utilBox = el('div', { class: 'chart' });
      const memBox = el('div', { class: 'chart' });
      const root = el('div', { class: 'node', 'data-node': node.node }, title, line, table, sharing, el('div', { class: 'charts' }, utilBox, memBox));
      nodesBox.append(root);
      entry = { root, title, line, sharing, table, utilBox, memBox, key, gpus, times: [], util: gpus.map(() => []), mem: gpus.map(() => []) };
      if (gpus.length > 0) {
        entry.utilChart = chart(utilBox, 'utilisation', '%', gpus, [0, 100]);
        entry.memChart = chart(memBox, 'memory used', 'GiB', gpus, null);
      }
      cards.set(node.node, entry);
    }
    return entry;
  }

  function render(doc) {
    const seen = new Set();
    const now = Number(doc.at);
    for (const node of doc.nodes) {
      seen.add(node.node);
      const entry = card(node);
      entry.title.lastChild.textContent = [node.address, node.hostname, node.driver_version ? 'driver ' + node.driver_version : null]
        .filter(Boolean).join(' · ');
      entry.line.textContent = node.status === 'probing' ? 'probing…'
        : node.status === 'up' ? (node.error || '') : node.status + ': ' + (node.error || 'no answer');
      entry.line.className = node.status === 'up' || node.status === 'probing' ? 'muted' : 'failure';
      fillTable(entry.table, GPU_COLUMNS, node.gpus);
      entry.sharing.replaceChildren(...sharingLines(node.sharing).map(text => el('div', {}, text)));
      if (node.status === 'up' && entry.utilChart) {
        entry.times.push(now);
        entry.gpus.forEach((index, i) => {
          const gpu = node.gpus.find(g => g.index === index);
          entry.util[i].push(gpu ? gpu.util_percent : null);
          entry.mem[i].push(gpu && gpu.mem_used_mb !== null ? gpu.mem_used_mb / 1024 : null);
        });
        const cut = now - windowSeconds();
        while (entry.times.length && entry.times[0] < cut) {
          entry.times.shift();
          entry.util.forEach(s => s.shift());
          entry.mem.forEach(s => s.shift());
        }
        entry.utilChart.setData([entry.times].concat(entry.util));
        entry.memChart.setData([entry.times].concat(entry.mem));
      }
    }
    for (const [name, entry] of cards) {
      if (!seen.has(name)) { entry.root.remove(); cards.delete(name); }
    }
    const c = doc.capacity;
    capacityLine.textContent = c.gpus + ' GPUs: ' + c.available + ' available, ' + c.busy + ' busy, ' + c.unknown
      + ' unknown · average util ' + (c.avg_util_percent === null ? '-' : c.avg_util_percent + '%')
      + ' · memory ' + mib(c.mem_used_mb) + ' / ' + mib(c.mem_total_mb);
    updated.textContent = 'updated ' + nvidb.time(now);
  }

  async function poll() {
    timer = null;
    if (!running || paused) return;
    try {
      const doc = await api('/api/live' + (remote === null ? '' : '?remote=' + (remote ? 1 : 0)));
      if (remote === null) { remote = doc.remote; remoteBox.checked = remote; }
      if (running && doc.remote === remote) render(doc);
      status('');
    } catch (error) {
      status(error.message);
    }
    schedule();
  }

  function schedule() {
    if (running && !paused && timer === null) timer = setTimeout(poll, Number(intervalPick.value) * 1000);
  }

  function clear() {
    for (const entry of cards.values()) entry.root.remove();
    cards.clear();
  }

  remoteBox.addEventListener('change', () => {
    remote = remoteBox.checked;
    clear();
    if (timer !== null) { clearTimeout(timer); timer = null; }
    poll();
  });
  intervalPick.addEventListener('change', () => {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    schedule();
  });
  pauseButton.addEventListener('click', () => {
    paused = !paused;
    pauseButton.textContent = paused ? 'Resume' : 'Pause';
    if (!paused) poll();
  });
  window.addEventListener('resize', () => {
    for (const entry of cards.values()) {
      if (entry.utilChart) {
        entry.utilChart.setSize({ width: Math.max(300, entry.utilBox.clientWidth), height: 180 });
        entry.memChart.setSize({ width: Math.max(300, entry.memBox.clientWidth), height: 180 });
      }
    }
  });

  view('live', {
    start() { running = true; poll(); },
    stop() { running = false; if (timer !== null) { clearTimeout(timer); timer = null; } },
  });
})();
