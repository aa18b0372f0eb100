// The rendered document as HTML (scripts may have added JSON-LD), read in the page's own world:
// page.content() would first build Playwright's utility world, which costs more than the read itself.
export default function readDocument(): string {
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return doctype + document.documentElement.outerHTML;
}
