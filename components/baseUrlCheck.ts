/**
 * Inline script for every HTML page. When the site is served under a base path other than the
 * one it was built for, its scripts 404 and React never starts; instead of a blank or frozen
 * page the reader then sees a banner that says what is wrong. SPEC §8 ("wrong base URL").
 */
export const BASE_URL_BANNER_ID = 'base-url-issue-banner'

export function baseUrlCheckScript(basePath: string): string {
  const expected = JSON.stringify(basePath || '/')
  return `(function(){window.addEventListener('load',function(){setTimeout(function(){
if(window.next&&window.next.router)return;
var b=document.createElement('div');b.id=${JSON.stringify(BASE_URL_BANNER_ID)};b.setAttribute('role','alert');
b.style.cssText='position:fixed;top:0;left:0;right:0;z-index:1000;padding:16px;background:#fdecea;color:#611a15;font:16px/1.5 system-ui,sans-serif;border-bottom:2px solid #611a15';
b.textContent='The documentation site did not load properly: its scripts could not be loaded. It expects to be served at the base path '+${expected}+' but is served at '+location.pathname+'. Check the hosting base path, then reload.';
document.body.prepend(b);},1500)});})();`
}
