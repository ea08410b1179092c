// Progressive enhancement only: every page works without this file.
// Shows how many characters of the explanation are left.
document.addEventListener("DOMContentLoaded", function () {
  var area = document.getElementById("explanation");
  var help = document.getElementById("explanation-help");
  if (!area || !help) return;
  var max = parseInt(area.getAttribute("maxlength"), 10);
  var base = help.textContent;
  function update() {
    help.textContent = base + " (" + (max - area.value.length) + ")";
  }
  area.addEventListener("input", update);
});
