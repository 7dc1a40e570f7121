/**
 * Header pane: device, backend, scope, counts of frames / graphs / breaks / recompiles, compile time,
 * and banners for the cell's exception, capture diagnostics and torch log records.
 */
import type { IViewContext } from '../context';
import { button, formatSeconds, h, plural } from '../../dom';
import { PANE_TITLES, type Callee, type CompileReport, type CompileSettings } from '../../schema';
import { numericsOf, worseChecks } from '../../model/numericsModel';
import { dynamicText } from '../../model/shapeText';
import { Pane, type IPaneShell } from './pane';
import { ranksView } from './ranks';
import { traceBanner } from './traceSource';

/** What scope 'watch' does, in the header's words (compiler/summary.py WATCHING, the text/plain line's). */
export const WATCHING = 'watching your torch.compile calls';

/**
 * The header's shell: no section frame; its title is the brand, its toolbar the row of facts, its body the
 * header itself (counts, banners and logs follow the facts).
 */
function headerShell(): IPaneShell {
  const title = h('span', { class: 'jp-DynamoExplorer-brand', text: PANE_TITLES.header });
  const toolbar = h('div', { class: 'jp-DynamoExplorer-facts' }, title);
  const element = h('div', { class: 'jp-DynamoExplorer-header', data: { pane: 'header' } }, toolbar);
  return { element, title, toolbar, body: element };
}

/**
 * The header of a report: drawn once; it does not change with the frame shown.
 */
export class HeaderPane extends Pane {
  constructor(ctx: IViewContext) {
    super(ctx, 'header', headerShell());
    renderHeader(ctx, this.toolbar, this.body);
  }

  protected render(): void {
    // Report-wide: nothing depends on the frame shown.
  }

  protected renderNoFrame(): void {
    // Report-wide: nothing depends on the frame shown.
  }
}

/**
 * Fill the header of a report: facts after the brand in `facts`, then counts, banners and logs in `element`.
 */
function renderHeader(ctx: IViewContext, facts: HTMLElement, element: HTMLElement): void {
  const { report, index } = ctx;
  const fact = (label: string, value: string, title?: string): HTMLElement =>
    h(
      'span',
      { class: 'jp-DynamoExplorer-fact', title },
      h('span', { class: 'jp-DynamoExplorer-factLabel', text: label }),
      value
    );
  const count = (name: string, value: number, label: string): HTMLElement =>
    h(
      'span',
      { class: 'jp-DynamoExplorer-count' },
      h('span', { class: 'jp-DynamoExplorer-countValue', text: String(value), data: { count: name } }),
      ` ${label}${value === 1 ? '' : 's'}`
    );
  const opts = report.options;
  // scope 'watch' applies none of the run's compile options: the code's own torch.compile calls chose theirs
  const watching = report.scope === 'watch';
  const backendExtras = [
    opts.mode && !watching ? `mode=${opts.mode}` : '',
    opts.dynamic !== null && !watching ? `dynamic=${opts.dynamic}` : '',
    opts.fullgraph && !watching ? 'fullgraph' : '',
    opts.fresh ? 'fresh' : ''
  ].filter(Boolean);
  facts.append(
    fact('device', report.device),
    fact('backend', report.backend + (backendExtras.length ? ` (${backendExtras.join(', ')})` : '')),
    fact('scope', watching ? `watch: ${WATCHING}` : report.scope, report.scope_reason),
    fact('compile', formatSeconds(report.timings.compile_s), `wall ${formatSeconds(report.timings.wall_s)}`),
    fact('torch', report.torch_version, `Python ${report.python_version}`)
  );
  element.appendChild(
    h(
      'div',
      { class: 'jp-DynamoExplorer-counts' },
      count('frames', report.frames.length, 'frame'),
      count('graphs', index.dynamoGraphCount, 'graph'),
      count('breaks', index.breakCount, 'graph break'),
      count('recompiles', index.recompileCount, 'recompile')
    )
  );
  for (const row of [traceBanner(report), ranksView(ctx)]) {
    if (row) {
      element.appendChild(row);
    }
  }
  const callees = calleesRow(report);
  if (callees) {
    element.appendChild(callees);
  }
  for (const reset of report.resets ?? []) {
    element.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-banner jp-mod-info', data: { banner: 'reset' } },
        h('strong', { text: 'torch._dynamo.reset(): ' }),
        h('span', { text: reset.message }),
        reset.line !== null
          ? button(` line ${reset.line}`, () => void ctx.jumpToLine(null, reset.line!), {
              class: 'jp-DynamoExplorer-link'
            })
          : null
      )
    );
  }
  if (report.error) {
    const err = report.error;
    const frame = err.compile_id ? (index.frames.get(err.compile_id) ?? null) : null;
    element.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-banner jp-mod-error', data: { banner: 'error' } },
        h('strong', { text: `The cell raised ${err.type}: ` }),
        h('span', { class: 'jp-DynamoExplorer-message', text: err.message }),
        err.line !== null
          ? button(`line ${err.line}`, () => void ctx.jumpToLine(frame, err.line!), { class: 'jp-DynamoExplorer-link' })
          : null
      )
    );
  }
  const worse = worseChecks(numericsOf(report));
  if (worse.length > 0) {
    element.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-banner jp-mod-error', data: { banner: 'numerics' } },
        h('strong', { text: 'Compiled numbers worse than eager against float64: ' }),
        ...worse.map(g =>
          button(g.summary, () => void ctx.selectFrame(g.compile_id), {
            class: 'jp-DynamoExplorer-link',
            title: 'Show this frame (its Numerics pane)'
          })
        )
      )
    );
  }
  const carried = carriedState(ctx);
  if (carried) {
    element.appendChild(carried);
  }
  for (const diag of report.diagnostics) {
    element.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-banner jp-mod-warning', data: { banner: 'diagnostic' } },
        h('strong', { text: `${diag.kind}${diag.compile_id ? ` [${diag.compile_id}]` : ''}: ` }),
        h('span', { class: 'jp-DynamoExplorer-message', text: diag.message })
      )
    );
  }
  if (report.logs.length > 0) {
    const details = h(
      'details',
      { class: 'jp-DynamoExplorer-logs' },
      h('summary', { text: plural(report.logs.length, 'torch log record') })
    );
    for (const log of report.logs) {
      details.appendChild(
        h('pre', {
          class: `jp-DynamoExplorer-log jp-mod-${log.level.toLowerCase()}`,
          text: `${log.level} ${log.logger}${log.compile_id ? ` [${log.compile_id}]` : ''}: ${log.message}`
        })
      );
    }
    element.appendChild(details);
  }
}

/**
 * `backend='aot_eager', dynamic=False, fullgraph=True`: the options a callee was compiled with, written as
 * torch.compile's arguments (the words of compiler/calls.py `describe_settings`).
 */
export function settingsText(settings: CompileSettings): string {
  const py = (v: unknown): string =>
    typeof v === 'string' ? `'${v}'` : typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
  const parts = [`backend=${py(settings.backend)}`];
  if (settings.mode !== null) {
    parts.push(`mode=${py(settings.mode)}`);
  }
  if (settings.dynamic !== null) {
    parts.push(`dynamic=${py(settings.dynamic)}`);
  }
  if (settings.fullgraph) {
    parts.push('fullgraph=True');
  }
  if (settings.options) {
    const items = Object.entries(settings.options).map(([k, v]) => `'${k}': ${py(v)}`);
    parts.push(`options={${items.join(', ')}}`);
  }
  if (settings.recompile_limit !== null) {
    parts.push(`recompile_limit=${settings.recompile_limit}`);
  }
  return parts.join(', ');
}

/**
 * One callee of scope 'calls' in a few words: `cg (line 7, your torch.compile: backend='aot_eager')`,
 * `work (line 8, on another thread: threading.Thread)`, `main (line 10, a coroutine function (async def))`.
 */
export function calleeText(callee: Callee): string {
  const notes = [`line ${callee.line}`];
  if (callee.compiled && callee.compile?.origin === 'torch.compile') {
    notes.push(`your torch.compile: ${settingsText(callee.compile)}`);
  }
  if (callee.thread_api) {
    notes.push(`on another thread: ${callee.thread_api}`);
  }
  if (!callee.compiled) {
    notes.push(callee.why.split(':', 1)[0]);
  }
  return `${callee.name} (${notes.join(', ')})`;
}

/** Callees of the user's the cell never handed to Dynamo (compiler/summary.py RUNS_PLAIN): a coroutine, a generator. */
function notablePlain(callee: Callee): boolean {
  return !callee.compiled && callee.why.includes('runs as plain Python');
}

/**
 * What scope 'calls' compiled and with which options, and what of the user's it ran plain: a row under the
 * counts; null for other scopes or when nothing is worth saying beyond the scope's tooltip.
 */
function calleesRow(report: CompileReport): HTMLElement | null {
  const callees = report.callees ?? [];
  const compiled = callees.filter(c => c.compiled);
  const plain = callees.filter(notablePlain);
  if (compiled.length === 0 && plain.length === 0) {
    return null;
  }
  const part = (label: string, items: Callee[], key: string): HTMLElement | null =>
    items.length === 0
      ? null
      : h(
          'span',
          { data: { callees: key } },
          h('span', { class: 'jp-DynamoExplorer-factLabel', text: label }),
          items.map(calleeText).join(' · ')
        );
  return h(
    'div',
    { class: 'jp-DynamoExplorer-callees' },
    part('compiled', compiled, 'compiled'),
    part('ran plain', plain, 'plain')
  );
}

/**
 * The banner that explains state carried between runs: frames whose inputs were already dynamic when the run
 * started, because Dynamo's automatic dynamic shapes remember what an earlier run in this process saw
 * (frames[].automatic_dynamic with marked_in null); null when there is none.
 */
function carriedState(ctx: IViewContext): HTMLElement | null {
  const { report } = ctx;
  const items: HTMLElement[] = [];
  for (const frame of report.frames) {
    const carried = (frame.automatic_dynamic ?? []).filter(d => d.marked_in === null);
    if (carried.length === 0) {
      continue;
    }
    items.push(
      h(
        'li',
        { data: { compileId: frame.compile_id } },
        button(`[${frame.compile_id}]`, () => void ctx.selectFrame(frame.compile_id), {
          class: 'jp-DynamoExplorer-link'
        }),
        ` ${frame.code.name}: ${carried.map(dynamicText).join('; ')}`
      )
    );
  }
  if (items.length === 0) {
    return null;
  }
  return h(
    'div',
    { class: 'jp-DynamoExplorer-banner jp-mod-info', data: { banner: 'carried-state' } },
    h('strong', { text: 'Dynamic from an earlier run: ' }),
    h('span', {
      text:
        "Dynamo's automatic dynamic shapes remember, per code (file, line, name) and for the whole process, which " +
        'inputs changed size. These frames started symbolic, so the recompile an earlier run went through does not ' +
        'happen again. Run the cell with --fresh to start this code from a clean slate (compiler.reset_code(fn) ' +
        'does it for one function).'
    }),
    h('ul', {}, ...items)
  );
}
