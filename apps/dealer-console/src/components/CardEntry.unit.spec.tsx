import { act, fireEvent, render, screen } from '@testing-library/react';
import { CardEntry } from './CardEntry';

function setup(props: Partial<Parameters<typeof CardEntry>[0]> = {}) {
  const sent: string[] = [];
  const onSubmit = jest.fn(async (card: string) => {
    sent.push(card);
  });
  render(<CardEntry label="Enter card" onSubmit={onSubmit} {...props} />);
  const input = screen.getByLabelText(/Enter card/) as HTMLInputElement;
  return { input, sent, onSubmit };
}

async function type(input: HTMLInputElement, text: string) {
  fireEvent.change(input, { target: { value: text } });
  await act(async () => {
    fireEvent.keyDown(input, { key: 'Enter' });
  });
}

describe('CardEntry', () => {
  it('sends a valid card on Enter and clears the field for the next', async () => {
    const { input, sent } = setup();
    await type(input, 'Ah');
    expect(sent).toEqual(['Ah']);
    expect(input.value).toBe('');
  });

  it('accepts either case and 10 for a ten, as a dealer or a shoe reader types', async () => {
    const { input, sent } = setup();
    await type(input, 'td');
    await type(input, '10C');
    await type(input, ' 9s ');
    expect(sent).toEqual(['Td', 'Tc', '9s']);
  });

  it('refuses an invalid card on screen and never sends it', async () => {
    const { input, onSubmit } = setup();
    for (const bad of ['Zz', 'A', 'Ahh', '1h', 'hA']) {
      await type(input, bad);
      expect(screen.getByRole('alert').textContent).toMatch(/is not a card/);
      expect(input.getAttribute('aria-invalid')).toBe('true');
    }
    await type(input, '');
    expect(screen.getByRole('alert').textContent).toMatch(/Type a card/);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('does not send while typing: only Enter submits', () => {
    const { input, onSubmit } = setup();
    fireEvent.change(input, { target: { value: 'Kh' } });
    fireEvent.keyDown(input, { key: 'h' });
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText(/king of hearts/)).toBeTruthy();
  });

  it('sends cards typed quickly one after another, in order', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = new Promise<void>((r) => (release = r));
    const onSubmit = jest.fn(async (card: string) => {
      if (card === 'Ah') await first;
      order.push(card);
    });
    render(<CardEntry label="Enter card" onSubmit={onSubmit} />);
    const input = screen.getByLabelText(/Enter card/) as HTMLInputElement;
    await type(input, 'Ah');
    await type(input, 'Kd');
    expect(order).toEqual([]);
    await act(async () => release());
    expect(order).toEqual(['Ah', 'Kd']);
  });

  it('focuses on its shortcut key pressed outside a field, and shows the key', () => {
    const { input } = setup({ shortcut: 'e' });
    expect(screen.getByText('E').tagName).toBe('KBD');
    expect(document.activeElement).not.toBe(input);
    fireEvent.keyDown(document.body, { key: 'e' });
    expect(document.activeElement).toBe(input);
  });

  it('never types its own shortcut letter into the field (pressed while the field already has the focus)', () => {
    const { input } = setup({ shortcut: 'e', autoFocus: true });
    expect(document.activeElement).toBe(input);
    // fireEvent returns false when the key's default action (typing it) was prevented
    expect(fireEvent.keyDown(input, { key: 'e' })).toBe(false);
    expect(fireEvent.keyDown(input, { key: 'E', shiftKey: true })).toBe(false);
    expect(input.value).toBe('');
    // the letters of a card are typed as ever
    expect(fireEvent.keyDown(input, { key: 'h' })).toBe(true);
  });

  it('ignores its shortcut while another field is being typed in', () => {
    render(<input aria-label="other" />);
    const { input } = setup({ shortcut: 'e' });
    const other = screen.getByLabelText('other');
    other.focus();
    fireEvent.keyDown(other, { key: 'e' });
    expect(document.activeElement).toBe(other);
    expect(input.value).toBe('');
  });

  it('with captureRanks, a rank typed anywhere starts a card in the field', async () => {
    const { input, sent } = setup({ captureRanks: true });
    fireEvent.keyDown(document.body, { key: 'Q' });
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('Q');
    await type(input, 'Qs');
    expect(sent).toEqual(['Qs']);
    fireEvent.keyDown(document.body, { key: 'x' });
    expect(input.value).toBe('');
  });

  it('shows the burn count of the turned card when asked', () => {
    const { input } = setup({ showBurn: true });
    fireEvent.change(input, { target: { value: 'Kh' } });
    expect(screen.getByText(/burn 10/)).toBeTruthy();
    fireEvent.change(input, { target: { value: '7c' } });
    expect(screen.getByText(/burn 7/)).toBeTruthy();
  });
});
