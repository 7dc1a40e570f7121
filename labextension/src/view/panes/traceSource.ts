/**
 * The header's row for a report read from torch's structured trace (`report.trace`, scope 'trace'): which log and
 * rank, that nothing ran here, what the trace does not hold (each in the pane it belongs to, and why), and the
 * cache decisions it records (FX graph cache and AOTAutograd cache: hit, miss, bypass per compile id).
 */
import { h, plural } from '../../dom';
import { PANE_TITLES, type CompileReport } from '../../schema';

/** A one-line count of the cache decisions, `fx_graph: 2 miss · aotautograd: 1 hit`, with every decision in its title. */
export function cacheSummary(report: CompileReport): HTMLElement | null {
  const caches = report.trace?.caches ?? [];
  if (!caches.length) {
    return null;
  }
  const counts = new Map<string, Map<string, number>>();
  for (const c of caches) {
    const byStatus = counts.get(c.cache) ?? new Map<string, number>();
    byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
    counts.set(c.cache, byStatus);
  }
  const text = [...counts]
    .map(([cache, byStatus]) => `${cache}: ${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')}`)
    .join(' · ');
  const title = caches
    .map(
      c =>
        `[${c.compile_id ?? '?'}] ${c.cache} ${c.status}${c.reason ? ` (${c.reason})` : ''}${c.key ? ` ${c.key}` : ''}`
    )
    .join('\n');
  return h(
    'span',
    { class: 'jp-DynamoExplorer-traceCaches', title, data: { caches: String(caches.length) } },
    `caches: ${text}`
  );
}

/** The trace banner, or null for a captured run. */
export function traceBanner(report: CompileReport): HTMLElement | null {
  const trace = report.trace;
  if (!trace) {
    return null;
  }
  const logs = trace.logs.map(l => l.path).join(', ');
  const skipped = trace.logs.reduce((n, l) => n + l.skipped, 0);
  return h(
    'div',
    { class: 'jp-DynamoExplorer-banner jp-mod-info', data: { banner: 'trace' } },
    h('strong', { text: 'Read from a structured trace: ' }),
    h('span', {
      text:
        `${logs}${trace.rank !== null ? ` (rank ${trace.rank})` : ''}; nothing ran here.` +
        (skipped ? ` ${plural(skipped, 'line')} of the log could not be read.` : '')
    }),
    cacheSummary(report),
    trace.missing.length
      ? h(
          'details',
          { class: 'jp-DynamoExplorer-traceMissing' },
          h('summary', { text: `Not in the trace (${trace.missing.length})` }),
          h(
            'ul',
            {},
            ...trace.missing.map(m =>
              h(
                'li',
                { data: { pane: m.pane } },
                h('strong', { text: `${PANE_TITLES[m.pane as keyof typeof PANE_TITLES] ?? m.pane}: ` }),
                `${m.what}. ${m.why}.`
              )
            )
          )
        )
      : null
  );
}
