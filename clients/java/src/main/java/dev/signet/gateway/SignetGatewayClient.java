package dev.signet.gateway;

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.MGF1ParameterSpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

public final class SignetGatewayClient {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder();

    /** Reads certificate.cer (DER) or certificate.pem: CertificateFactory accepts both. */
    public static PublicKey loadGatewayKey(String path) throws Exception {
        try (InputStream in = new FileInputStream(path)) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            return cert.getPublicKey();
        }
    }

    /** A new 32-byte session key for every request; store it under the ReferenceNumber. */
    public static byte[] newSessionKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }

    /** Legacy profile: RSA PKCS#1 v1.5 + AES-256-ECB/PKCS#7. json is the payload text. */
    public static Map<String, String> sealLegacy(PublicKey gateway, byte[] sessionKey, String json) throws Exception {
        Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
        rsa.init(Cipher.ENCRYPT_MODE, gateway);
        byte[] jsonBytes = json.getBytes(StandardCharsets.UTF_8);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(jsonBytes); // raw 32 bytes
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Parameter1", B64.encodeToString(rsa.doFinal(sessionKey)));
        form.put("Parameter2", B64.encodeToString(ecb(Cipher.ENCRYPT_MODE, sessionKey, jsonBytes)));
        form.put("Parameter3", B64.encodeToString(ecb(Cipher.ENCRYPT_MODE, sessionKey, hash)));
        return form;
    }

    /**
     * Modern profile: RSA-OAEP (SHA-256, MGF1-SHA-256) + AES-256-GCM. The payload must contain
     * "Timestamp": Instant.now().toString() (e.g. 2026-11-22T08:43:25.123Z).
     */
    public static Map<String, String> sealModern(PublicKey gateway, byte[] sessionKey, String json) throws Exception {
        Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
        // Explicit parameters: the SunJCE default for "OAEPWithSHA-256AndMGF1Padding" is MGF1-SHA-1.
        OAEPParameterSpec oaep =
                new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);
        rsa.init(Cipher.ENCRYPT_MODE, gateway, oaep);
        byte[] jsonBytes = json.getBytes(StandardCharsets.UTF_8);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(jsonBytes);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Parameter1", B64.encodeToString(rsa.doFinal(sessionKey)));
        form.put("Parameter2", B64.encodeToString(gcmSeal(sessionKey, jsonBytes)));
        form.put("Parameter3", B64.encodeToString(gcmSeal(sessionKey, hash)));
        form.put("Profile", "2");
        return form;
    }

    /** Opens the Returnvalue posted to SUrl (legacy: ECB; modern: GCM). */
    public static byte[] openResult(byte[] sessionKey, boolean modern, String returnvalue) throws Exception {
        // A framework may have turned '+' into ' ' (at either end too) or wrapped the lines.
        String fixed = returnvalue.replaceAll("[\\r\\n\\t]", "").replace(' ', '+');
        while (fixed.length() % 4 != 0) {
            fixed += "=";
        }
        byte[] data = Base64.getDecoder().decode(fixed);
        return modern ? gcmOpen(sessionKey, data) : ecb(Cipher.DECRYPT_MODE, sessionKey, data);
    }

    private static byte[] ecb(int mode, byte[] key, byte[] data) throws Exception {
        Cipher aes = Cipher.getInstance("AES/ECB/PKCS5Padding"); // = PKCS#7 for AES
        aes.init(mode, new SecretKeySpec(key, "AES"));
        return aes.doFinal(data);
    }

    private static byte[] gcmSeal(byte[] key, byte[] data) throws Exception {
        byte[] nonce = new byte[12];
        RANDOM.nextBytes(nonce); // a fresh nonce for every encryption
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        byte[] sealed = gcm.doFinal(data); // ciphertext || 16-byte tag
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(nonce);
        out.write(sealed);
        return out.toByteArray();
    }

    private static byte[] gcmOpen(byte[] key, byte[] data) throws Exception {
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                new GCMParameterSpec(128, Arrays.copyOfRange(data, 0, 12)));
        return gcm.doFinal(data, 12, data.length - 12); // throws AEADBadTagException if tampered
    }
}
