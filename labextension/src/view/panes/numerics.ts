/**
 * Numerics pane (`--check-numerics`, issue 42): for the frame shown, each checked call of its compiled graph in
 * the engine's words (`summary`), then its outputs in a table: the verdict, the largest difference from eager,
 * the compiled and eager values' distances from float64, and why (what a difference no worse than eager is
 * expected from, or why an output or the whole graph was not compared). A button opens the graph in the FX pane, and
 * for a call worse than eager another opens the first node whose compiled value is worse, and one a kernel that
 * computes it in the code pane; a line says what torch's compiler bisector found, in its own names
 * (backend › subsystem › the pass, op, node or setting).
 * Without the option it says how to ask for the check. The header's banner names the graphs worse than eager
 * (header.ts, through numericsModel.ts's `worseChecks`).
 */
import type { IViewContext } from '../context';
import { button, h, plural } from '../../dom';
import type { Frame, Numerics, NumericsGraph } from '../../schema';
import { checksOf, formatError, numericsOf, VERDICT_WORDS } from '../../model/numericsModel';
import { emptyState, Pane } from './pane';

/** What the pane says without the check. */
export const NOT_CHECKED =
  'Numbers not checked: run with --check-numerics (or explore(fn, check_numerics=True)) to compare each compiled ' +
  "graph's outputs with the same graph run eagerly and in float64.";

/**
 * The Numerics pane.
 */
export class NumericsPane extends Pane {
  /** The check, or null when the run had none. */
  readonly numerics: Numerics | null;

  constructor(ctx: IViewContext) {
    super(ctx, 'numerics');
    this.numerics = numericsOf(ctx.report);
    if (this.numerics) {
      const n = this.numerics;
      this.toolbar.appendChild(
        h('span', {
          class: 'jp-DynamoExplorer-meta',
          text: `${plural(n.graphs.length, 'checked call')} · ${n.seconds.toFixed(2)} s, ${plural(n.runs, 'run')}`
        })
      );
    }
  }

  protected render(frame: Frame): void {
    this.body.replaceChildren();
    if (!this.numerics) {
      this.body.appendChild(emptyState(NOT_CHECKED));
      return;
    }
    const checks = checksOf(this.numerics, frame.compile_id);
    if (checks.length === 0) {
      this.body.appendChild(emptyState(`[${frame.compile_id}]: no call of its compiled graph was checked.`));
      return;
    }
    for (const check of checks) {
      this.body.appendChild(this._check(check));
    }
  }

  protected renderNoFrame(): void {
    this.body.replaceChildren(emptyState(this.numerics ? 'No compiled graph to check.' : NOT_CHECKED));
  }

  private _check(check: NumericsGraph): HTMLElement {
    const head = h(
      'div',
      { class: 'jp-DynamoExplorer-numericsHead' },
      h('span', {
        class: `jp-DynamoExplorer-verdict jp-mod-${check.verdict}`,
        data: { verdict: check.verdict },
        text: VERDICT_WORDS[check.verdict]
      }),
      h('span', { class: 'jp-DynamoExplorer-numericsSummary', text: check.summary })
    );
    if (check.graph_id !== null) {
      const id = check.graph_id;
      head.appendChild(
        button(`graph ${id}`, () => void this.ctx.showGraph(id), { title: 'Open it in the FX graph pane' })
      );
      const node = check.first_node;
      if (node) {
        head.appendChild(
          button(`node ${node}`, () => void this.ctx.showNode(id, node), {
            title: 'The first node whose compiled value is worse: open it in the FX graph pane',
            data: { node }
          })
        );
        const graph = this.ctx.report.graphs.find(g => g.id === id);
        for (const ref of graph ? this.ctx.index.kernels.kernelsOfNode(graph, node) : []) {
          head.appendChild(
            button(ref.kernel, () => void this.ctx.showKernel(ref), {
              title: `A kernel that computes ${node}: show it in the inductor code`,
              data: { kernel: ref.kernel }
            })
          );
        }
      }
    }
    const section = h(
      'div',
      { class: 'jp-DynamoExplorer-numericsCheck', data: { compileId: check.compile_id, call: String(check.call) } },
      head
    );
    const at = check.location;
    if (at) {
      const path = [at.backend, at.subsystem, at.detail].filter((x): x is string => !!x).join(' › ');
      section.appendChild(
        h('div', {
          class: 'jp-DynamoExplorer-numericsLocation',
          title: check.located ?? '',
          text: `compiler bisector: ${path}`
        })
      );
    }
    if (check.outputs.length > 0) {
      const rows = check.outputs.map(o =>
        h(
          'tr',
          { data: { output: String(o.index), verdict: o.verdict } },
          h('td', { text: `out[${o.index}]` }),
          h('td', { text: `${o.dtype}[${o.shape.join(', ')}]` }),
          h('td', { class: `jp-mod-${o.verdict}`, text: VERDICT_WORDS[o.verdict] }),
          h('td', { text: formatError(o.max_abs) }),
          h('td', { text: formatError(o.compiled_error) }),
          h('td', { text: formatError(o.eager_error) }),
          h('td', { text: o.why ?? '' })
        )
      );
      const heads = [
        'output',
        'dtype',
        'verdict',
        'largest difference',
        'compiled from float64',
        'eager from float64',
        'why'
      ];
      section.appendChild(
        h(
          'table',
          { class: 'jp-DynamoExplorer-table jp-DynamoExplorer-numericsTable' },
          h('thead', {}, h('tr', {}, ...heads.map(text => h('th', { text })))),
          h('tbody', {}, ...rows)
        )
      );
    }
    return section;
  }
}
