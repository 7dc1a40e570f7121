/**
 * The top of the profile pane: the profiled run split into compiled | eager | compile as one stacked bar with its
 * legend; on a GPU, the device time outside the graphs' own runs; and with an eager baseline (`--compare-eager`),
 * the speedup over eager, when the compile pays back, and each compiled function's speedup.
 */
import { button, h } from '../../dom';
import { deviceParts } from '../../model/profileCalls';
import {
  formatMs,
  formatPct,
  formatSpeedup,
  functionRows,
  paybackRuns,
  paybackSentence,
  runSplit,
  speedupSentence,
  splitText
} from '../../model/profileModel';
import type { EagerBaseline, Profile } from '../../schema';
import { frameLink, sortableTable, type IProfileTables } from './profileTable';

/** The run split: one stacked bar and its legend (ms and % of each part). */
export function splitSection(profile: Profile): HTMLElement {
  const parts = runSplit(profile);
  const bar = h('div', {
    class: 'jp-DynamoExplorer-splitBar',
    attrs: { role: 'img', 'aria-label': `run split: ${splitText(profile)}` }
  });
  const legend = h('ul', { class: 'jp-DynamoExplorer-splitLegend' });
  for (const part of parts) {
    const title = `${part.key}: ${formatMs(part.ms)}, ${formatPct(part.share)} of the run; ${part.detail}`;
    const seg = h('div', {
      class: `jp-DynamoExplorer-splitPart jp-mod-${part.key}`,
      title,
      data: { part: part.key, ms: String(part.ms), share: String(part.share) }
    });
    seg.style.width = `${(part.share * 100).toFixed(3)}%`;
    bar.appendChild(seg);
    const lookups =
      part.key === 'eager' && profile.cache_lookups > 0
        ? h('span', {
            class: 'jp-DynamoExplorer-muted',
            data: { lookups: String(profile.cache_lookups) },
            text: ` incl. ${profile.cache_lookups} cache lookup${profile.cache_lookups === 1 ? '' : 's'}, ${formatMs(profile.cache_lookup_ms)}`
          })
        : null;
    legend.appendChild(
      h(
        'li',
        { data: { part: part.key }, title },
        h('span', { class: `jp-DynamoExplorer-splitSwatch jp-mod-${part.key}` }),
        h('strong', { text: part.key }),
        ` ${formatMs(part.ms)} `,
        h('span', { class: 'jp-DynamoExplorer-splitPct', text: `(${formatPct(part.share)})` }),
        lookups
      )
    );
  }
  return h(
    'div',
    { class: 'jp-DynamoExplorer-split', data: { section: 'split' } },
    h('div', {
      class: 'jp-DynamoExplorer-splitHead',
      text: `The profiled run: ${formatMs(profile.wall_ms)}${profile.device === 'cuda' ? ' (with CUDA kernel times)' : ''}`
    }),
    bar,
    legend
  );
}

/** On a GPU: the device time no graph's own run launched (eager kernels, compile work's), with the eager kernels. */
export function deviceSection(profile: Profile): HTMLElement | null {
  const parts = deviceParts(profile);
  if (!parts) {
    return null;
  }
  return h(
    'div',
    {
      class: 'jp-DynamoExplorer-profileDevice',
      data: { section: 'device' },
      title: 'each kernel is charged to the call that launched it (the profiler’s link from a kernel to its launch)'
    },
    h('span', { text: 'Device time outside the graphs’ own runs: ' }),
    h('span', { data: { part: 'eager' }, text: parts.eager }),
    ' · ',
    h('span', { data: { part: 'compile' }, text: parts.compile }),
    parts.kernels.length > 0
      ? h(
          'details',
          { class: 'jp-DynamoExplorer-kernelList' },
          h('summary', { text: 'eager kernels' }),
          h(
            'ol',
            {},
            ...parts.kernels.map(k =>
              h('li', {
                title: k.name,
                text: `${k.name} · ${k.calls}× · ${formatMs(k.device_ms)}`,
                data: { kernel: k.name }
              })
            )
          )
        )
      : null
  );
}

/** The comparison with eager: the speedup, when the compile pays back, and each function's speedup. */
export function baselineSection(t: IProfileTables, baseline: EagerBaseline): HTMLElement {
  const runs = paybackRuns(baseline);
  const verdict = runs === null ? 'not-faster' : 'faster';
  const el = h(
    'div',
    { class: 'jp-DynamoExplorer-speedup', data: { section: 'speedup', verdict } },
    h('div', { class: 'jp-DynamoExplorer-speedupLine', text: speedupSentence(baseline) }),
    h('div', {
      class: 'jp-DynamoExplorer-payback',
      data: { runs: runs === null ? '' : String(runs) },
      text: paybackSentence(baseline)
    })
  );
  const rows = functionRows(baseline, t.ctx.index);
  if (rows.length > 0) {
    el.appendChild(
      sortableTable(t, 'functions', 'Speedup per compiled function', rows, [
        {
          label: 'function',
          wrap: true,
          sort: r => r.fn.name,
          cell: r =>
            h(
              'span',
              {},
              button(`${r.fn.name}`, () => void t.ctx.jumpToLine(null, r.fn.line), {
                class: 'jp-DynamoExplorer-link',
                title: `line ${r.fn.line} of the cell`,
                data: { jump: String(r.fn.line) }
              }),
              ...r.frames.map(f => frameLink(t.ctx, f.compile_id))
            )
        },
        { label: 'calls', numeric: true, sort: r => r.fn.calls, cell: r => String(r.fn.calls) },
        {
          label: 'eager',
          title: 'its calls in the plain run',
          numeric: true,
          sort: r => r.fn.eager_ms,
          cell: r => formatMs(r.fn.eager_ms)
        },
        {
          label: 'compiled',
          title: 'its calls in the compiled run, compile time excluded',
          numeric: true,
          sort: r => r.fn.compiled_ms,
          cell: r => formatMs(r.fn.compiled_ms)
        },
        {
          label: 'speedup',
          title: 'eager / compiled',
          numeric: true,
          sort: r => r.fn.speedup ?? 0,
          cell: r => formatSpeedup(r.fn.speedup)
        }
      ])
    );
  }
  return el;
}
