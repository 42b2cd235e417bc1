// nvidb web: what every view shares. Plain JavaScript, no build step; all text reaches the page
// through textContent, never as HTML.
'use strict';

const nvidb = (() => {
  const views = {};

  /** Fetches an API document; a failure rejects with the server's one line ({"error": "..."}). */
  async function api(path) {
    const response = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
    let body = null;
    try { body = await response.json(); } catch (e) { /* not JSON */ }
    if (!response.ok) {
      const error = new Error(body && body.error ? body.error : 'HTTP ' + response.status + ' from ' + path);
      error.status = response.status;
      throw error;
    }
    return body;
  }

  /** An element with attributes and children (strings become text). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** Fills a table: columns are {key, label, num, format(row)}. */
  function fillTable(table, columns, rows, options = {}) {
    table.replaceChildren();
    const head = el('tr', {}, columns.map(column => {
      const th = el('th', { class: column.num ? 'num' : null, 'data-key': column.key }, column.label);
      if (options.sort && options.sort.key === column.key) th.append(options.sort.ascending ? ' ▲' : ' ▼');
      if (options.onSort) th.addEventListener('click', () => options.onSort(column.key));
      return th;
    }));
    table.append(el('thead', {}, head));
    const body = el('tbody');
    for (const row of rows) {
      const tr = el('tr', {}, columns.map(column => {
        const value = column.format ? column.format(row) : row[column.key];
        return el('td', { class: [column.num ? 'num' : null, column.cls ? column.cls(row) : null].filter(Boolean).join(' ') || null },
          value === null || value === undefined ? '-' : value);
      }));
      if (options.onRow) tr.addEventListener('click', () => options.onRow(row, tr));
      if (options.selected && options.selected(row)) tr.classList.add('selected');
      body.append(tr);
    }
    table.append(body);
  }

  const pad = n => String(n).padStart(2, '0');
  /** Seconds since the epoch as local "YYYY-MM-DD HH:MM:SS". */
  function time(seconds) {
    if (seconds === null || seconds === undefined) return null;
    const d = new Date(seconds * 1000);
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' '
      + pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  }
  function duration(seconds) {
    if (seconds === null || seconds === undefined) return null;
    const s = Math.round(seconds);
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  }
  function mib(value) {
    if (value === null || value === undefined) return null;
    return value >= 1024 ? (value / 1024).toFixed(1) + 'G' : value + 'M';
  }
  function numberOr(value, digits, unit) {
    if (value === null || value === undefined) return null;
    return (digits === undefined ? value : Number(value).toFixed(digits)) + (unit || '');
  }

  const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777',
    '#4b5563', '#65a30d', '#7c3aed', '#0d9488'];
  const color = i => COLORS[i % COLORS.length];

  function status(text) {
    document.getElementById('status').textContent = text || '';
  }

  /** Registers a view: start() when it is shown, stop() when another is. */
  function view(name, handlers) {
    views[name] = handlers;
  }

  let current = null;
  function show() {
    const name = (location.hash || '#live').slice(1);
    const chosen = views[name] ? name : 'live';
    if (current === chosen) return;
    if (current && views[current].stop) views[current].stop();
    for (const section of document.querySelectorAll('section.view')) section.hidden = section.id !== chosen;
    for (const link of document.querySelectorAll('header nav a')) link.classList.toggle('active', link.id === 'tab-' + chosen);
    current = chosen;
    status('');
    views[chosen].start();
  }

  // A node's sharing lines (docs/sharing.md), as the text views print them under the node.
  function sharingLines(sharing) {
    if (!sharing) return [];
    const lines = [];
    if (sharing.error) lines.push('claims: ' + sharing.error);
    (sharing.warnings || []).forEach(w => lines.push('claims: ' + w));
    if (sharing.policy_error) lines.push('policy: ' + sharing.policy_error);
    else if (sharing.policy) lines.push('policy: ' + sharing.policy);
    (sharing.waiting || []).forEach(w => lines.push('waiting: ' + w.text));
    return lines;
  }

  window.addEventListener('hashchange', show);
  window.addEventListener('DOMContentLoaded', show);

  return { api, el, fillTable, time, duration, mib, numberOr, color, status, view, sharingLines };
})();
