"""pyHanko's ETSI EN 319 102-1 validation with long-term validation (ades_lta_validation: the
document time-stamp chain gives proofs of existence, then past signature validation) of every
signature in a PDF at a chosen time, from what the file carries: revocation data is required,
and nothing is fetched (the validation time is a point in time, as `pyhanko sign adesverify
--validation-time` sets it).

`pyhanko sign adesverify` runs the same validation but prints the status of the signature at the
validation time, not the AdES indication the long-term validation reached: a signature time-stamp
whose TSA certificate has expired by then reads "untrusted" and the bottom line INVALID even
when the validation passed. This script prints the indication itself.

Usage: pyhanko_ades_lta.py FILE.pdf UNIX_SECONDS ROOT.pem...
Prints one line per signature, `FIELD INDICATION [why]`; exits 0 only when every signature's
indication is PASSED.
"""

import asyncio
import datetime
import sys

from pyhanko.keys import load_cert_from_pemder
from pyhanko.sign.ades.report import AdESPassed
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation.ades import ades_lta_validation
from pyhanko.sign.validation.policy_decl import (
    PdfSignatureValidationSpec,
    SignatureValidationSpec,
)
from pyhanko_certvalidator.context import CertValidationPolicySpec
from pyhanko_certvalidator.ltv.types import ValidationTimingInfo
from pyhanko_certvalidator.policy_decl import (
    REQUIRE_REVINFO,
    CertRevTrustPolicy,
    FreshnessReqType,
)
from pyhanko_certvalidator.registry import SimpleTrustManager


def main(pdf, at, roots):
    when = datetime.datetime.fromtimestamp(int(at), tz=datetime.timezone.utc)
    # The policy `pyhanko sign adesverify` builds (revocation data required).
    policy = CertValidationPolicySpec(
        trust_manager=SimpleTrustManager.build(
            trust_roots=[load_cert_from_pemder(r) for r in roots]
        ),
        revinfo_policy=CertRevTrustPolicy(
            REQUIRE_REVINFO,
            freshness=None,
            freshness_req_type=FreshnessReqType.MAX_DIFF_REVOCATION_VALIDATION,
        ),
    )
    spec = PdfSignatureValidationSpec(
        SignatureValidationSpec(cert_validation_policy=policy)
    )
    timing = ValidationTimingInfo(when, when, point_in_time_validation=True)
    all_passed = True
    with open(pdf, 'rb') as f:
        signatures = PdfFileReader(f).embedded_regular_signatures
        if not signatures:
            print('no signatures')
            return 1
        for sig in signatures:
            result = asyncio.run(ades_lta_validation(sig, spec, timing_info=timing))
            passed = result.ades_subindic == AdESPassed.OK
            all_passed &= passed
            why = '' if passed else f' {result.failure_msg}'
            print(f'{sig.field_name} {result.ades_subindic}{why}')
    return 0 if all_passed else 1


if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
