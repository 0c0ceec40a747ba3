// Omoide dashboard: the only script. Loaded with `defer` from /static (the CSP allows no inline
// script). Every page works without it; it adds the live token count of the block editor.
"use strict";

function liveTokenCount(textarea) {
  const form = textarea.form;
  const output = form.querySelector("[data-token-output]");
  const maxShown = form.querySelector("[data-token-max]");
  const maxInput = form.querySelector("[data-max-tokens]");
  let timer = null;
  let sent = 0;

  function mark() {
    const limit = Number(maxInput.value);
    maxShown.textContent = maxInput.value;
    output.parentElement.classList.toggle("over", Number(output.textContent) > limit);
  }

  async function count() {
    const ticket = ++sent;
    const body = new URLSearchParams({ content: textarea.value });
    const reply = await fetch(textarea.dataset.tokenCount, {
      method: "POST",
      headers: { "X-CSRF-Token": textarea.dataset.csrf },
      body: body,
      credentials: "same-origin",
    });
    if (!reply.ok || ticket !== sent) return; // a newer count is on its way
    output.textContent = String((await reply.json()).tokens);
    mark();
  }

  textarea.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(count, 120);
  });
  maxInput.addEventListener("input", mark);
  mark();
}

document.querySelectorAll("textarea[data-token-count]").forEach(liveTokenCount);
