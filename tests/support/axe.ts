import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule broken on one element, as axe reports it. */
export interface AxeFinding {
  rule: string;
  impact: string;
  target: string;
  /** The colours and ratio of a contrast finding, or axe's summary of what fails. */
  detail: string;
}

/**
 * Runs axe-core inside the page on what it shows now and returns the serious and critical
 * violations (WCAG 2.x A and AA rules and axe's best practices): the ones that lock someone out.
 * WCAG 2.2's target size (24 px, or that much room around a smaller target) is on too: axe
 * leaves it off by default.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Colours are read as they are painted: a fade under way (a list coming back from dimmed)
  // would be judged at whatever opacity it had reached. Endless ones (a spinner) never settle.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  return page.evaluate(async () => {
    type Node = { target: unknown[]; failureSummary?: string; any: Array<{ data?: unknown }> };
    type Violation = { id: string; impact: string | null; nodes: Node[] };
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'target-size': { enabled: true } },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) =>
        v.nodes.map((n) => ({
          rule: v.id,
          impact: v.impact ?? '',
          target: n.target.map(String).join(' '),
          detail: n.any[0]?.data ? JSON.stringify(n.any[0].data) : (n.failureSummary ?? ''),
        })),
      );
  });
}
