/** The dealer screen's event log: each event's time in the casino's time zone, its type in the reader's language. */
import { render, screen } from '@testing-library/react';
import { i18n } from '../i18n';
import { EventLog } from './TableParts';

const LOG = [
  { revision: 12, type: 'CoupResolved', at: '2026-01-01T12:00:05.000Z' },
  { revision: 11, type: 'CardDealt', at: '2026-01-01T12:00:01.000Z' },
] as const;

afterEach(async () => {
  document.querySelector('meta[name="coup-time-zone"]')?.remove();
  await i18n.changeLanguage('en');
});

it("shows each event's time in the casino's time zone, whatever the browser's", async () => {
  const meta = document.createElement('meta');
  meta.name = 'coup-time-zone';
  meta.content = 'Asia/Macau'; // UTC+8
  document.head.append(meta);
  render(<EventLog log={LOG} />);
  const times = screen.getAllByRole('listitem').map((li) => li.querySelector('time'));
  expect(times.map((t) => t?.textContent)).toEqual(['20:00:05', '20:00:01']);
  expect(times[0]?.getAttribute('dateTime')).toBe(LOG[0].at);
  expect(screen.getAllByRole('listitem')[0]?.textContent).toBe('#12 20:00:05 CoupResolved');
});

it('names the events in Chinese when Chinese is chosen', async () => {
  await i18n.changeLanguage('zh');
  render(<EventLog log={LOG} />);
  expect(screen.getByRole('heading').textContent).toBe('事件');
  expect(screen.getAllByRole('listitem').map((li) => li.textContent?.split(' ').at(-1))).toEqual([
    '本局结算',
    '发牌',
  ]);
});
