// A classic script, loaded first, so that no CSP violation of the page goes unrecorded.
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push({
    blockedURI: event.blockedURI,
    effectiveDirective: event.effectiveDirective,
    violatedDirective: event.violatedDirective,
    disposition: event.disposition,
    sample: event.sample,
    sourceFile: event.sourceFile,
    lineNumber: event.lineNumber,
    originalPolicy: event.originalPolicy,
  });
});
