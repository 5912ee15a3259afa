import sanitizeHtml from 'sanitize-html';

/**
 * Where images in rich text may come from, in the words of the page's Content-Security-Policy
 * (`plugins/security.ts` builds its img-src from this): this site's own files (attachments) and
 * data: URLs of images. The sanitizer keeps exactly the images these allow (`isAllowedImageSrc`),
 * so every image it lets through also shows, and none loads from another host (no tracking pixel).
 */
export const RICH_TEXT_IMG_SRC = ["'self'", 'data:'] as const;

const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/i;

/** A path on this site (not `//host` or `/\host`, which browsers read as another host), or a data: image. */
export function isAllowedImageSrc(src: string | undefined): boolean {
  if (!src) return false;
  return /^\/(?![/\\])/.test(src) || DATA_IMAGE.test(src);
}

/**
 * Staff-written rich text as it may reach a candidate's screen: formatting, lists, tables,
 * links and images only; no script, style, event handler, frame or javascript: URL. Images only
 * from where the CSP lets them load (RICH_TEXT_IMG_SRC).
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'h2',
      'h3',
      'h4',
      'h5',
      'p',
      'br',
      'hr',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'span',
      'blockquote',
      'ul',
      'ol',
      'li',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'a',
      'img',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    exclusiveFilter: (frame) => frame.tag === 'img' && !isAllowedImageSrc(frame.attribs.src),
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  });
}

/** Plain text of rich text, for list summaries. */
export function plainText(html: string, max = 80): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
