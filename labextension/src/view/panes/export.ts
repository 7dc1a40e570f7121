/**
 * Export pane (issue 43; report.exports, minors 21-22; [Note: export calls] in compiler/collectors/exports/exports.py):
 * every `torch.export` call of the run, whichever frame is shown (an export is not a frame of Dynamo's). Each call
 * in the engine's words (`summary`), then what it is made of: a failure's kind, message, the user's line and its
 * code (a button shows a line of the cell in the source pane), export's own suggested fixes and the remedies; an
 * exported program's graph signature, the range of each symbol with its `Dim`, what it checks of its inputs when called, its graph (a button
 * draws it in the FX graph pane) and code; `draft_export`'s report, each failure and what it assumed. Minor 23: the
 * frames Dynamo compiled within the call (strict mode), each a button that shows it, and the report's fixes for a
 * failed call, each a button to its card in the Try a fix pane.
 */
import type { IViewContext } from '../context';
import { button, h, plural } from '../../dom';
import { readFixes } from '../../model/tryFixModel';
import type { DraftFailure, ExportCall, Fix, Frame } from '../../schema';
import { revealFix } from '../openMark';
import { emptyState, isView, Pane } from './pane';

/** What the pane says when the run made no export call. */
export const NO_EXPORT = 'No torch.export call in this run (torch.export.export, draft_export, torch._dynamo.export).';

/** A table: its heads and rows of text. */
function table(cls: string, heads: string[], rows: string[][]): HTMLElement {
  return h(
    'table',
    { class: `jp-DynamoExplorer-table ${cls}` },
    h('thead', {}, h('tr', {}, ...heads.map(text => h('th', { text })))),
    h('tbody', {}, ...rows.map(cells => h('tr', {}, ...cells.map(text => h('td', { text })))))
  );
}

/** A bound of a range: a number, or the side's infinity. */
function bound(value: number | null, none: string): string {
  return value === null ? none : String(value);
}

/**
 * The Export pane.
 */
export class ExportPane extends Pane {
  /** The run's export calls, in order. */
  readonly calls: ExportCall[];

  constructor(ctx: IViewContext) {
    super(ctx, 'export');
    this.calls = ctx.report.exports ?? [];
    if (this.calls.length > 0) {
      const failed = this.calls.filter(c => c.outcome === 'failed').length;
      this.toolbar.appendChild(
        h('span', {
          class: 'jp-DynamoExplorer-meta',
          text: `${plural(this.calls.length, 'call')}` + (failed ? ` · ${failed} failed` : '')
        })
      );
    }
  }

  protected render(_frame: Frame): void {
    this._draw();
  }

  protected renderNoFrame(): void {
    this._draw();
  }

  private _draw(): void {
    this.body.replaceChildren();
    if (this.calls.length === 0) {
      this.body.appendChild(emptyState(NO_EXPORT));
      return;
    }
    for (const call of this.calls) {
      this.body.appendChild(this._call(call));
    }
  }

  private _call(call: ExportCall): HTMLElement {
    const head = h(
      'div',
      { class: 'jp-DynamoExplorer-exportHead' },
      h('span', {
        class: `jp-DynamoExplorer-verdict jp-mod-${call.outcome}`,
        data: { outcome: call.outcome },
        text: call.outcome
      }),
      h('span', { class: 'jp-DynamoExplorer-exportSummary', text: call.summary })
    );
    const section = h(
      'div',
      { class: 'jp-DynamoExplorer-exportCall', data: { index: String(call.index), mode: call.mode } },
      head
    );
    const inputs = call.inputs.map(i => `${i.name}: ${i.dtype ?? ''}${i.shape ? `[${i.shape.join(', ')}]` : ''}`);
    section.appendChild(
      h('div', {
        class: 'jp-DynamoExplorer-meta',
        text:
          `${call.api}(${call.module}, ${inputs.join(', ')})` +
          (call.dynamic_shapes ? ` · dynamic_shapes=${call.dynamic_shapes}` : '') +
          ` · ${call.seconds.toFixed(2)} s`
      })
    );
    const f = call.failure;
    if (f) {
      const what = h(
        'div',
        { class: 'jp-DynamoExplorer-exportFailure', data: { kind: f.kind } },
        h('b', { text: `${f.exception}: ${f.what}` })
      );
      if (f.line !== null) {
        const line = f.line;
        // the source pane shows the cell (with a frame or without one); a line of another file: its code here
        what.appendChild(
          this.ctx.index.lineKey(f.filename, line) === `cell:${line}`
            ? button(`line ${line}`, () => void this.ctx.jumpToLine(null, line), {
                class: 'jp-DynamoExplorer-link',
                title: 'Show the line in the source pane',
                data: { line: String(line) }
              })
            : h('span', { text: `line ${line}`, data: { line: String(line) } })
        );
        if (f.code) {
          what.appendChild(h('code', { text: f.code }));
        }
      }
      section.appendChild(what);
      section.appendChild(h('pre', { class: 'jp-DynamoExplorer-exportMessage', text: f.message }));
      const fixes = [...f.suggested.map(s => `suggested fix: ${s}`), ...f.remedies];
      if (fixes.length > 0) {
        section.appendChild(
          h('ul', { class: 'jp-DynamoExplorer-exportFixes' }, ...fixes.map(text => h('li', { text })))
        );
      }
      const tries = readFixes(this.ctx.report).filter(x =>
        x.targets.some(t => t.kind === 'export' && t.index === call.index)
      );
      if (tries.length > 0) {
        section.appendChild(
          h(
            'div',
            { class: 'jp-DynamoExplorer-exportTries' },
            h('span', { class: 'jp-DynamoExplorer-muted', text: 'Try a fix: ' }),
            ...tries.map(x => this._tryButton(x))
          )
        );
      }
    }
    const compiles = call.compile_ids ?? [];
    if (compiles.length > 0) {
      section.appendChild(
        h(
          'div',
          { class: 'jp-DynamoExplorer-exportFrames' },
          h('span', {
            class: 'jp-DynamoExplorer-muted',
            text: `strict mode: Dynamo traced ${compiles.length === 1 ? 'the module as frame' : 'frames'} `
          }),
          ...compiles.map(cid =>
            button(`[${cid}]`, () => void this.ctx.selectFrame(cid), {
              class: 'jp-DynamoExplorer-link',
              title: 'Show the frame: its bytecode, guards, graph and breaks',
              data: { compileId: cid }
            })
          )
        )
      );
    }
    if (call.signature.length > 0) {
      const rows = call.signature.map(s => [s.direction, s.kind, s.name, s.target ?? '']);
      section.appendChild(table('jp-DynamoExplorer-exportSignature', ['', 'kind', 'name', 'target'], rows));
    }
    if (call.ranges.length > 0) {
      const rows = call.ranges.map(r => [
        r.symbol,
        r.dim ?? '',
        r.place ?? '',
        bound(r.min, '-inf'),
        bound(r.max, 'inf')
      ]);
      section.appendChild(table('jp-DynamoExplorer-exportRanges', ['symbol', 'Dim', 'where', 'min', 'max'], rows));
    }
    if ((call.checks ?? []).length > 0) {
      const rows = call.checks!.map(c => [c.kind, c.input ?? '', c.expr]);
      section.appendChild(table('jp-DynamoExplorer-exportChecks', ['checked when called', 'input', 'check'], rows));
    }
    if (call.draft.length > 0) {
      section.appendChild(this._draft(call.draft));
    }
    // the exported graph: drawn in the FX graph pane (minor 22), its code here; minor 21 kept the code only
    const graph =
      call.graph_id !== null && call.graph_id !== undefined ? this.ctx.index.graphs.get(call.graph_id) : undefined;
    const code = graph?.code ?? call.graph_code ?? null;
    if (graph) {
      section.appendChild(
        button(
          `draw the exported graph (${plural(graph.nodes.length, 'node')})`,
          () => void this.ctx.showGraph(graph.id),
          {
            class: 'jp-DynamoExplorer-link',
            title: 'Show it in the FX graph pane',
            data: { graphId: String(graph.id) }
          }
        )
      );
    }
    if (code) {
      section.appendChild(
        h(
          'details',
          { class: 'jp-DynamoExplorer-exportGraph' },
          h('summary', { text: `exported graph's code (${plural(call.graph_nodes ?? 0, 'node')})` }),
          h('pre', { text: code })
        )
      );
    }
    return section;
  }

  /** A fix for the call: its name and title, a button to its card in the Try a fix pane (a hint too). */
  private _tryButton(fix: Fix): HTMLElement {
    const { ctx } = this;
    return button(`${fix.name}`, () => void (isView(ctx) && revealFix(ctx, fix.name)), {
      class: 'jp-DynamoExplorer-link',
      title: `${fix.title}: the Try a fix pane runs it (--try ${fix.name})`,
      data: { fix: fix.name }
    });
  }

  private _draft(entries: DraftFailure[]): HTMLElement {
    const rows = entries.map(d => [
      d.kind,
      d.line !== null ? `line ${d.line}` : '',
      d.code ?? '',
      d.expr ?? d.op ?? '',
      d.assumed ?? ''
    ]);
    return table(
      'jp-DynamoExplorer-exportDraft',
      ["draft_export's report", 'where', 'code', 'expression', 'assumed'],
      rows
    );
  }
}
