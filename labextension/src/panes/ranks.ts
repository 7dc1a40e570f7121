/**
 * The header's ranks view (`report.ranks`: a multi-rank trace, or `dynamo-explorer run --nproc`): a ranks ×
 * compile-ids table (each cell the compile's status and cache decisions, `missing` where a rank did not compile that
 * id), each rank's compile seconds with the straggler marked, and the first divergence with its cause (the guard
 * that failed on the rank that recompiled, the collective where they part, or the diff of the two ranks' graphs), and
 * each compile's collectives rank beside rank in issue order, a position where a rank issues another one marked.
 * The rest of the report is `shown_rank`'s.
 */
import { h } from '../dom';
import type { Collective, CompileReport, RanksView } from '../schema';

/** `all_reduce(float32[4], 'sum', '0')`, as compiler/collectives.py's `describe`; `nothing` past a rank's last. */
export function describeCollective(c: Collective | undefined): string {
  if (!c) {
    return 'nothing';
  }
  const shape = `${c.dtype ?? '?'}${c.shape ? `[${c.shape.join(', ')}]` : ''}`;
  return `${c.op}(${[shape, c.args].filter(s => s).join(', ')})`;
}

function signature(c: Collective | undefined): string {
  return c ? JSON.stringify([c.op, c.shape, c.dtype, c.args]) : '';
}

/** One table per compile id that issues collectives: positions × ranks, a cell unlike the lowest rank's marked. */
function collectivesView(view: RanksView, columns: string[]): HTMLElement | null {
  const tables = columns.flatMap(cid => {
    const seqs = view.ranks.map(r => r.compiles.find(c => c.compile_id === cid)?.collectives ?? []);
    const longest = Math.max(0, ...seqs.map(s => s.length));
    if (longest === 0) {
      return [];
    }
    const rows = Array.from({ length: longest }, (_, i) => {
      const ref = signature(seqs[0][i]);
      return h(
        'tr',
        {},
        h('td', { text: `#${i + 1}` }),
        ...seqs.map(s =>
          h('td', {
            class: signature(s[i]) === ref ? '' : 'jp-mod-diverges',
            title: s[i] ? `${s[i].graph} graph, node ${s[i].node}` : undefined,
            text: describeCollective(s[i])
          })
        )
      );
    });
    const differs = rows.some(r => r.querySelector('.jp-mod-diverges') !== null);
    const open = differs || view.divergence?.compile_id === cid;
    return [
      h(
        'details',
        { data: { collectives: cid }, attrs: open ? { open: '' } : undefined },
        h('summary', {
          text: `[${cid}]: ${longest} collective${longest === 1 ? '' : 's'}${differs ? ', the ranks issue different ones' : ', alike on every rank'}`
        }),
        h(
          'table',
          { class: 'jp-DynamoExplorer-ranksTable' },
          h('tr', {}, h('th', { text: '' }), ...view.ranks.map(r => h('th', { text: `rank ${r.rank}` }))),
          ...rows
        )
      )
    ];
  });
  return tables.length
    ? h(
        'div',
        { class: 'jp-DynamoExplorer-collectives' },
        h('strong', { text: 'Collectives, in issue order (ranks pair them by position)' }),
        ...tables
      )
    : null;
}

/** The compile ids of every rank, in first-seen order (rank by rank). */
export function rankColumns(view: RanksView): string[] {
  const order: string[] = [];
  for (const r of view.ranks) {
    for (const c of r.compiles) {
      if (!order.includes(c.compile_id)) {
        order.push(c.compile_id);
      }
    }
  }
  return order;
}

export function ranksView(report: CompileReport): HTMLElement | null {
  const view = report.ranks;
  if (!view) {
    return null;
  }
  const div = view.divergence;
  const odd = new Set(div?.ranks ?? []);
  const columns = rankColumns(view);
  const rows = view.ranks.map(r => {
    const byId = new Map(r.compiles.map(c => [c.compile_id, c]));
    return h(
      'tr',
      { data: { rank: String(r.rank) } },
      h('td', { text: `rank ${r.rank}${r.rank === view.shown_rank ? ' (shown)' : ''}` }),
      h('td', { text: `${r.compile_s.toFixed(2)} s${r.straggler ? ' (straggler)' : ''}`, title: r.source }),
      ...columns.map(cid => {
        const c = byId.get(cid);
        const diverges = div?.compile_id === cid && odd.has(r.rank);
        const cls = `${c ? `jp-mod-${c.status}` : 'jp-mod-missing'}${diverges ? ' jp-mod-diverges' : ''}`;
        return h('td', {
          class: cls,
          data: { compileId: cid },
          title: c
            ? `graph ${c.graph ?? 'none'}${c.compile_s !== null ? `, ${c.compile_s.toFixed(3)} s` : ''}`
            : undefined,
          text: c ? `${c.status}${c.cache ? ` · ${c.cache}` : ''}` : 'missing'
        });
      })
    );
  });
  return h(
    'div',
    { class: 'jp-DynamoExplorer-ranks', data: { ranks: String(view.world_size) } },
    div
      ? h(
          'div',
          { class: 'jp-DynamoExplorer-banner jp-mod-warning', data: { banner: 'divergence' } },
          h('strong', { text: `Ranks diverge (${div.kind}): ` }),
          h('span', { text: div.summary }),
          div.detail ? h('pre', { class: 'jp-DynamoExplorer-divergenceDetail', text: div.detail }) : null
        )
      : h('div', {
          class: 'jp-DynamoExplorer-banner jp-mod-info',
          data: { banner: 'divergence' },
          text: 'Every rank compiled alike.'
        }),
    h(
      'table',
      { class: 'jp-DynamoExplorer-ranksTable' },
      h(
        'tr',
        {},
        h('th', { text: 'rank' }),
        h('th', { text: 'compile' }),
        ...columns.map(cid => h('th', { text: `[${cid}]` }))
      ),
      ...rows
    ),
    collectivesView(view, columns)
  );
}
