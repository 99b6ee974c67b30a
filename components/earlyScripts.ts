import { bannerKey, ANNOUNCEMENT } from './AnnouncementBanner'

/**
 * Runs while the HTML is parsed, before React. The theme's own inline scripts (banner dismissal,
 * colour mode) exist only inside the docs layout, and the sign-in, unauthorized and error pages
 * are outside it. Without this, a dismissed banner and the dark mode would flash back there.
 */
export function earlyScript(): string {
  const key = JSON.stringify(bannerKey(ANNOUNCEMENT.id))
  return `try{var d=document.documentElement,t=localStorage.getItem('theme')||'light';
if(t==='system')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';
d.classList.add(t==='dark'?'dark':'light');d.style.colorScheme=t==='dark'?'dark':'light';
if(localStorage.getItem(${key})==='0')document.body.classList.add('nextra-banner-hidden')}catch(e){}`
}
