// Tells the server the browser's time zone, so pages show times as the
// viewer reads them. Without it the server shows UTC.
(function () {
  "use strict";
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || /[^A-Za-z0-9_+\-\/]/.test(zone)) return;
    var have = document.cookie.match(/(?:^|; )examsim_tz=([^;]*)/);
    if (have && decodeURIComponent(have[1]) === zone) return;
    document.cookie = "examsim_tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax" +
      (location.protocol === "https:" ? "; secure" : "");
    // The first page was shown in UTC: show it again in the viewer's zone
    // when it holds times.
    if (!have && document.querySelector("time[datetime]")) location.reload();
  } catch (e) { /* no Intl: times stay in UTC */ }
})();
