// Carries the answer to the ASP without a click when JavaScript runs; the button does it otherwise.
document.getElementById("esp-answer").submit();
