// Starts the vendored Swagger UI on /docs (an external file: the CSP allows no inline script).
"use strict";
window.addEventListener("load", () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null, // no call to the public validator: everything stays on this server
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
