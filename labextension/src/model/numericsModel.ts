/**
 * What `--check-numerics` found (report.numerics, minor 19; [Note: numerics] in
 * compiler/collectors/numerics/numerics.py): each compiled graph's outputs against the same Dynamo graph run
 * eagerly and in float64. The words are the engine's (`summary`, `why`); this module only picks and orders.
 *
 * - `numericsOf(report)`: the check, or null without the option (or a report before minor 19);
 * - `checksOf(numerics, compileId)`: the checked calls of one compile;
 * - `worseChecks(numerics)`: the calls worse than eager, for the header's banner;
 * - `VERDICT_WORDS`: each verdict in a few words; `formatError(x)`: a difference as the engine writes it (1.3e-03).
 */
import type { CompileReport, Numerics, NumericsGraph, NumericsVerdict } from '../schema';

/** Each verdict in a few words (compiler/summary.py's NUMERICS_WORDS, singular). */
export const VERDICT_WORDS: Record<NumericsVerdict, string> = {
  matches: 'matches eager',
  differs_no_worse: 'differs, no worse than eager',
  worse_than_eager: 'worse than eager',
  not_comparable: 'not compared'
};

/** The check, or null when the run had no --check-numerics. */
export function numericsOf(report: CompileReport): Numerics | null {
  return report.numerics ?? null;
}

/** The checked calls of one compile, in call order. */
export function checksOf(numerics: Numerics, compileId: string): NumericsGraph[] {
  return numerics.graphs.filter(g => g.compile_id === compileId);
}

/** The checked calls worse than eager against float64. */
export function worseChecks(numerics: Numerics | null): NumericsGraph[] {
  return (numerics?.graphs ?? []).filter(g => g.verdict === 'worse_than_eager');
}

/** A difference as the engine writes it: two significant digits, exponent form ('1.3e-03'); '' for none. */
export function formatError(value: number | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  const [mantissa, exponent] = value.toExponential(1).split('e');
  const n = Number(exponent);
  return `${mantissa}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}
