import { render, screen } from '@testing-library/react';
import { AppNav } from './App';

describe("the header's screens", () => {
  it('an admin can open the pit, compliance and the analysis from the header', () => {
    render(<AppNav role="admin" />);
    const links = screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Pit', '#/pit'],
      ['Compliance', '#/compliance'],
      ['Analysis', '#/analyst'],
    ]);
  });

  it('a role with one screen gets no menu', () => {
    for (const role of ['dealer', 'supervisor', 'compliance', 'analyst', 'player']) {
      const { container, unmount } = render(<AppNav role={role} />);
      expect({ role, html: container.innerHTML }).toEqual({ role, html: '' });
      unmount();
    }
  });
});
