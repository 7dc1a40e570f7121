/**
 * The graphs table of the profile pane: the compiled graphs ranked by time (a row opens its graph in the FX
 * pane), with each one's first call (its compile work and autotuning) apart from the calls after it, and on a
 * GPU its device time and kernels.
 */
import { button, h, type Child } from '../../dom';
import { firstCallText, steadyText } from '../../model/profileCalls';
import { formatMs, formatPct, rankGraphs, type IGraphRow } from '../../model/profileModel';
import type { Profile } from '../../schema';
import { frameLink, sortableTable, type IColumn, type IProfileTables } from './profileTable';

/** Graphs ranked by total time; a row opens its graph in the FX pane. */
export function graphsSection(t: IProfileTables, profile: Profile): HTMLElement {
  const rows = rankGraphs(profile, t.ctx.index);
  const gpu = rows.some(r => r.graph.device_ms !== null || r.kernels.length > 0);
  const split = rows.some(r => firstCallText(r.graph) !== null);
  const columns: Array<IColumn<IGraphRow>> = [
    { label: '#', numeric: true, sort: r => r.rank, cell: r => String(r.rank) },
    {
      label: 'graph',
      title: 'compile id (the cache entry) and Dynamo graph id: opens the graph in the FX pane',
      sort: r => r.graph.graph_id ?? -1,
      cell: r =>
        h(
          'span',
          {},
          frameLink(t.ctx, r.graph.compile_id),
          r.shown
            ? button(`graph ${r.graph.graph_id}`, () => void t.ctx.showGraph(r.graph.graph_id!), {
                class: 'jp-DynamoExplorer-link',
                title: 'Open this graph in the FX pane',
                data: { graphId: String(r.graph.graph_id) }
              })
            : h('span', { class: 'jp-DynamoExplorer-muted', text: ' (no graph in the report)' })
        )
    },
    { label: 'calls', numeric: true, sort: r => r.graph.calls, cell: r => String(r.graph.calls) },
    {
      label: 'total',
      title: 'host time inside the compiled graph, summed over its calls',
      numeric: true,
      sort: r => r.graph.total_ms,
      cell: r => formatMs(r.graph.total_ms)
    },
    { label: 'mean', numeric: true, sort: r => r.graph.mean_ms, cell: r => formatMs(r.graph.mean_ms) },
    {
      label: '% compiled',
      title: 'of the time inside compiled graphs',
      numeric: true,
      sort: r => r.share,
      cell: r => formatPct(r.share)
    },
    {
      label: 'ops/call',
      title: 'captured ops per call: the graph’s nodes that make a tensor (the torch calls one call replaces)',
      numeric: true,
      sort: r => r.graph.ops,
      cell: r => String(r.graph.ops)
    }
  ];
  if (split) {
    columns.push(
      {
        label: 'first call',
        title: 'host time of its first call, which holds its lazy compile, loading its code and inductor’s autotuning',
        numeric: true,
        sort: r => r.graph.first_call?.host_ms ?? -1,
        cell: r => firstCallCell(r)
      },
      {
        label: 'then',
        title: 'the calls after the first (the steady state): how many, and their mean host time',
        numeric: true,
        sort: r => {
          const s = r.graph.steady;
          return s && s.calls > 0 ? (s.host_ms - s.compile_ms) / s.calls : -1;
        },
        cell: r => steadyCell(r)
      }
    );
  }
  if (gpu) {
    columns.push(
      {
        label: 'device',
        title: 'CUDA time of the kernels its calls launched (charged by launch; its autotuning’s not included)',
        numeric: true,
        sort: r => r.graph.device_ms ?? -1,
        cell: r => (r.graph.device_ms === null ? '–' : formatMs(r.graph.device_ms))
      },
      { label: 'kernels', wrap: true, cell: r => kernelsCell(r) }
    );
  }
  const table = sortableTable(t, 'graphs', 'Graphs by time', rows, columns, r => ({
    compileId: r.graph.compile_id,
    graphId: r.graph.graph_id === null ? '' : String(r.graph.graph_id),
    rank: String(r.rank),
    open: r.shown ? () => void t.ctx.showGraph(r.graph.graph_id!) : undefined
  }));
  if (rows.length === 0) {
    table.appendChild(h('div', { class: 'jp-DynamoExplorer-empty', text: 'No compiled graph ran.' }));
  }
  return table;
}

/** A graph's first call: its host time, and how much of it was compile work (the tooltip says all). */
function firstCallCell(row: IGraphRow): Child {
  const first = row.graph.first_call;
  const text = firstCallText(row.graph);
  if (!first || text === null) {
    return '–';
  }
  return h(
    'span',
    { title: `first call: ${text}`, data: { firstCall: String(first.host_ms), compileMs: String(first.compile_ms) } },
    formatMs(first.host_ms),
    first.compile_ms > 0
      ? h('span', { class: 'jp-DynamoExplorer-muted', text: ` (${formatMs(first.compile_ms)} compile)` })
      : null
  );
}

/** The calls after a graph's first: `4× 3.10 ms` (the mean, compile work excluded), or `–`. */
function steadyCell(row: IGraphRow): Child {
  const steady = row.graph.steady;
  const text = steadyText(row.graph);
  if (!steady || text === null) {
    return '–';
  }
  const mean = (steady.host_ms - steady.compile_ms) / steady.calls;
  return h(
    'span',
    { title: `then ${text}`, data: { steady: String(steady.calls) } },
    `${steady.calls}× ${formatMs(mean)}`
  );
}

/** A graph's device kernels (a GPU), folded. */
function kernelsCell(row: IGraphRow): Child {
  if (row.kernels.length === 0) {
    return '–';
  }
  return h(
    'details',
    { class: 'jp-DynamoExplorer-kernelList' },
    h('summary', { text: `${row.kernels.length} kernel${row.kernels.length === 1 ? '' : 's'}` }),
    h(
      'ol',
      {},
      ...row.kernels.map(k =>
        h('li', {
          title: k.name,
          text: `${k.name} · ${k.calls}× · ${formatMs(k.device_ms)}`,
          data: { kernel: k.name }
        })
      )
    )
  );
}
