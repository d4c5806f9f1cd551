import type { Page } from 'playwright-core';

/**
 * What does not fit on the page as it is now, from the elements' boxes (issue #29 "Tests", checked in numbers, not
 * by eye): a text container whose content is wider than it (scrollWidth > clientWidth), an element wider than an
 * ancestor that hides its overflow (clipped), a control (button, link, input, select, textarea) outside the
 * viewport or cut by an ancestor, and a page wider than the screen. Each problem names the element and its text.
 * Visually hidden elements (screen-reader text: 1 px boxes or clipped on purpose) are not looked at.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const hidden = (element: Element) => {
      for (let each: Element | null = element; each; each = each.parentElement) {
        const style = getComputedStyle(each);
        const box = each.getBoundingClientRect();
        if (style.display === 'none' || style.visibility === 'hidden') return true;
        if (box.width <= 1 || box.height <= 1) return true;
        if (style.clip !== 'auto' && style.position === 'absolute') return true;
        if (style.clipPath !== 'none' && style.clipPath !== '') return true;
        if (style.opacity === '0') return true;
      }
      return false;
    };
    const clips = (style: CSSStyleDeclaration) => style.overflowX !== 'visible';
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`page wider than the screen: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    for (const element of document.body.querySelectorAll('*')) {
      if (['SCRIPT', 'STYLE', 'OPTION', 'svg', 'path', 'BR'].includes(element.tagName) || hidden(element)) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim(),
      );
      if (ownText && !style.display.startsWith('inline') && element.scrollWidth > element.clientWidth + 1)
        problems.push(`text wider than its box: ${name(element)} (${element.scrollWidth} > ${element.clientWidth})`);
      const control = element.matches('button, a[href], input:not([type="hidden"]), select, textarea');
      if (control && (box.left < -0.5 || box.right > viewport + 0.5))
        problems.push(
          `control outside the viewport: ${name(element)} (${Math.round(box.left)}–${Math.round(box.right)} of ${viewport})`,
        );
      for (
        let ancestor = element.parentElement;
        ancestor && ancestor !== document.body;
        ancestor = ancestor.parentElement
      ) {
        const ancestorStyle = getComputedStyle(ancestor);
        if (!clips(ancestorStyle)) continue;
        const around = ancestor.getBoundingClientRect();
        if (box.left < around.left - 0.5 || box.right > around.right + 0.5) {
          problems.push(`${control ? 'control' : 'element'} cut by ${name(ancestor)}: ${name(element)}`);
          break;
        }
      }
    }
    return problems;
  });
}
