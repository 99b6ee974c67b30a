/**
 * Inline scripts for every HTML page, for the two ways a page's scripts can fail before React
 * starts, so the reader never gets a blank or frozen page:
 *  - the site is served under a base path it was not built for: every script 404s, and a banner
 *    says so;
 *  - one page chunk fails (offline, or a deploy replaced it): Next waits for it forever, so the
 *    page shows the error and a Retry button that reloads.
 */
export const BASE_URL_BANNER_ID = 'base-url-issue-banner'

/** Registers, before Next's deferred scripts run, a record of every script that fails to load. */
export const recordFailedScripts = `window.__failedScripts=[];addEventListener('error',function(e){var t=e.target;if(t&&t.tagName==='SCRIPT'&&t.src)window.__failedScripts.push(t.src)},true);`

export function loadFailureScript(basePath: string): string {
  const expected = JSON.stringify(basePath || '/')
  return `(function(){addEventListener('load',function(){setTimeout(function(){
if(window.next&&window.next.router)return;
var failed=window.__failedScripts||[];if(!failed.length)return;
var site=failed.filter(function(s){return /\\/_next\\/static\\/chunks\\/(framework|main|webpack)-/.test(s)});
if(site.length){var b=document.createElement('div');b.id=${JSON.stringify(BASE_URL_BANNER_ID)};b.setAttribute('role','alert');
b.style.cssText='position:fixed;top:0;left:0;right:0;z-index:1000;padding:16px;background:#fdecea;color:#611a15;font:16px/1.5 system-ui,sans-serif;border-bottom:2px solid #611a15';
b.textContent='The documentation site did not load properly: its scripts could not be loaded. It expects to be served at the base path '+${expected}+' but is served at '+location.pathname+'. Check the hosting base path, then reload.';
document.body.prepend(b);return}
var root=document.getElementById('__next')||document.body;root.innerHTML='';
var box=document.createElement('div');box.setAttribute('role','alert');box.className='page-error';
var h=document.createElement('h1');h.textContent='This page could not be loaded.';
var p=document.createElement('p');p.textContent='Failed to load script: '+failed.join(', ');
var r=document.createElement('button');r.type='button';r.textContent='Retry';r.onclick=function(){location.reload()};
box.append(h,p,r);root.append(box)},1500)})})();`
}
