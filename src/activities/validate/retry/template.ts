/**
 * Retry prompt rendering: Handlebars, through the one renderer the definition's
 * validation also uses (src/definition/retry/retry-template.ts). PURE.
 */
export { renderRetryTemplate as renderTemplate } from '../../../definition/retry/retry-template.js';
