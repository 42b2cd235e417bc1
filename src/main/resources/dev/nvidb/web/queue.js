// Queue: the queue's nodes, jobs and open alerts, read-only, as 'nvidb queue status --json' has them.
'use strict';

(() => {
  const { api, fillTable, time, mib, status, view, sharingLines } = nvidb;
  const $ = id => document.getElementById(id);
  let timer = null;
  let running = false;

  function gpus(job) {
    if (job.gpu_ids && job.gpu_ids.length) return job.gpu_ids.join(',');
    return job.gpus === null || job.gpus === undefined ? null : String(job.gpus) + ' wanted';
  }

  function render(doc) {
    $('queue-problem').hidden = true;
    const counts = Object.entries(doc.counts || {}).filter(([, n]) => n > 0).map(([state, n]) => n + ' ' + state);
    $('queue-summary').textContent = (counts.length ? counts.join(', ') : 'no jobs')
      + ' · last tick ' + (time(doc.last_tick_at) || 'never')
      + (doc.keeper ? ' · keeper ' + (doc.keeper.up ? 'up' : 'down') : ' · no keeper');
    fillTable($('queue-alerts'), [
      { key: 'at', label: 'time', format: a => time(a.at) }, { key: 'severity', label: 'severity' },
      { key: 'kind', label: 'kind' }, { key: 'job_id', label: 'job', num: true }, { key: 'node', label: 'node' },
      { key: 'message', label: 'message' },
    ], doc.alerts);
    fillTable($('queue-nodes'), [
      { key: 'node', label: 'node' },
      { key: 'status', label: 'status', cls: n => n.status === 'up' ? null : 'down',
        format: n => n.status + (n.drained ? ', drained' : '') + (n.ignored ? ', ignored' : '') },
      { key: 'last_seen_at', label: 'last seen', format: n => time(n.last_seen_at) },
      { key: 'running_jobs', label: 'running', num: true },
      { key: 'gpus', label: 'GPUs (free / total)', format: n => n.gpus.map(g => g.index + ': ' + (mib(g.free_mb) || '-') + ' / ' + (mib(g.mem_total_mb) || '-')).join('  ') },
      { key: 'claims', label: 'other queues', format: n => n.gpus.flatMap(g => (g.claims || []).filter(c => !c.own_queue)
        .map(c => 'GPU ' + g.index + ': ' + c.text)).concat(sharingLines(n.sharing)).join('; ') || null },
      { key: 'last_error', label: 'last error' },
    ], doc.nodes);
    fillTable($('queue-jobs'), [
      { key: 'id', label: 'id', num: true }, { key: 'name', label: 'name' },
      { key: 'state', label: 'state', cls: j => 'state-' + j.state }, { key: 'node', label: 'node' },
      { key: 'gpus', label: 'GPUs', format: gpus }, { key: 'vram_mb', label: 'VRAM', num: true, format: j => mib(j.vram_mb) },
      { key: 'priority', label: 'priority', num: true }, { key: 'submitter', label: 'submitter' },
      { key: 'created_at', label: 'created', format: j => time(j.created_at) },
      { key: 'started_at', label: 'started', format: j => time(j.started_at) },
      { key: 'exit_code', label: 'exit', num: true },
      { key: 'pending_reason', label: 'why pending / last error', format: j => j.pending_reason || j.last_error },
      { key: 'command', label: 'command' },
    ], doc.jobs);
  }

  async function poll() {
    timer = null;
    if (!running) return;
    try {
      render(await api('/api/queue'));
      status('');
    } catch (error) {
      $('queue-problem').textContent = error.message;
      $('queue-problem').hidden = false;
    }
    if (running) timer = setTimeout(poll, 5000);
  }

  view('queue', {
    start() { running = true; poll(); },
    stop() { running = false; if (timer !== null) { clearTimeout(timer); timer = null; } },
  });
})();
