import { useEffect } from 'react';

/** The browser tab's title while the screen shows (the page's own title again once it goes). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}
