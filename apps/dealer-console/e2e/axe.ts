/**
 * Accessibility check for the browser tests: axe-core (through @axe-core/playwright) on the page as it is;
 * fails on any serious or critical violation, listing each with its nodes. `disableRules`: rule ids not checked,
 * only for a page whose markup is not ours (the caller says why).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function expectNoSeriousA11yViolations(
  page: Page,
  options: { readonly disableRules?: readonly string[] } = {},
): Promise<void> {
  const result = await new AxeBuilder({ page }).disableRules([...(options.disableRules ?? [])]).analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
  expect(serious).toEqual([]);
}
