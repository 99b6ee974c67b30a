/** The site's name: the browser tab, the footer, the root llms.txt and the AI tools' server all say it. */
export const SITE_NAME = 'Platform Docs'
