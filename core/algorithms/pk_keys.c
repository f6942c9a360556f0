/* pk_keys.c: the fixed keys that more than one scheme's sizes share, each
 * from a published test vector. Every engine signs, verifies and derives
 * with these; the run's header records each one's SHA-256 and its source
 * (core/algorithms/pk.h). The keys are public: they prove nothing but that
 * every engine got the same one. */
#include "core/algorithms/pk_keys.h"

#include <stddef.h>

/* Wycheproof testvectors_v1/rsa_pkcs1_2048_sig_gen_test.json, the first SHA-256
 * group: privateKeyPkcs8. */
static const char rsa2048[] = "308204bd020100300d06092a864886f70d0101010500048204a7308204a30201"
                              "000282010100a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094f"
                              "a1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89"
                              "d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e"
                              "42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed"
                              "81299615d9814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be"
                              "82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f11264"
                              "22f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c"
                              "4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf782"
                              "0283f742b9d50203010001028201007627eef3567b2a27268e52053ecd31c3a7"
                              "172ccb9ddcee819b306a5b3c66b7573ca4fa88efc6f3c4a00bfa0ae7139f6454"
                              "3a4dac3d05823f6ff477cfcec84fe2ac7a68b17204b390232e110310c4e899c4"
                              "e7c10967db4acde042dbbf19dbe00b4b4741de1020aaaaffb5054c797c9f136f"
                              "7d93ac3fc8caff6654242d7821ebee517bf537f44366a0fdd45ae05b9909c2e6"
                              "cc1ed9281eff4399f76c96b96233ec29ae0bbf0d752b234fc197389f51050aa1"
                              "acd01c074c3ac8fbdb9ea8b651a95995e8db4ad5c43b6c8673e5a126e7ee94b8"
                              "dff4c5afc01259bc8da76950bae6f8bae715f50985b0d6f66d04c6fef3b70072"
                              "0eecdcdf171bb7b1ecbe7289c467c102818100dc431050f782e894fb5248247d"
                              "98cb7d58b8d1e24f3b55d041c56e4de086b0d5bb028bda42eeb5d234d5681e58"
                              "09d415e6a289ad4cfbf78f978f6c35814f50eebff1c5b80a69f788e81e6bab5d"
                              "daa78369d659d143ec6f17e79813a575cfad9c569156b90113e2e9110ad9e7b4"
                              "8a1c9348a6e653321191290ea36cfb3a5b18f102818100bd1a81e7977f989812"
                              "2273ae3222b598ea5fb19eb4eabc38308a5e32196603b2e500ffb79f5b886816"
                              "611debc472fac45544070beb057c941378a6868af3b7a03d3f9880ec47d5e089"
                              "b94fbde542aba9ae8d72c57088d7abf5b131f39098f7bc160f90536abc9492fd"
                              "4e06f3ed7299d4b97bb03677207d95669f140cfbc20f2502818100a94b528b28"
                              "f291599121d91952ffd1c7f21d7c1479d99d478885fb161870ee1218bf084726"
                              "12dbe5497e8d9c650688e09c786961ae3e2c354dc48ae34514759c4c23c45884"
                              "88961dc06b414e61c0e1e7fbbd2923d31532fe289f96da220711e58c14019808"
                              "e00414276933bb07e4efb9b4a9b37656917205209f33f09515d7c10281803af0"
                              "e72a933aef09ff2503df78bafed531c02ff1a2bc437c540cdcbd4ad35435cf51"
                              "1763596543480629b114ca7f780ff7efa32ea0cb6e000d6d9ea1f2ef71fd9cf9"
                              "948422a165557e37e755edfe70d90b920502eb478bc98a63f788ce3a0f856d6e"
                              "de7251a383bfa8fa480a81a925af7b3cc538c4bab8c9f7597ffb68011d8d0281"
                              "802640fbfbcfefb163ee7a87b6483a66ee41f956d90fa8a7939bfc042ee0924b"
                              "1b7993d0445f758d51933e85179c0320b0c968b48a91c38b5be923e1097c0c56"
                              "2f88d42294b6a2759bafa5428a74f1270874e45f6fcc60f21602de5eccd143cf"
                              "31241f5921b5ad3983fb54ef17be3b285367e50c999c67247b552fe4bfce945f"
                              "7b";

/* Wycheproof testvectors_v1/rsa_pkcs1_3072_sig_gen_test.json, the first SHA-256
 * group: privateKeyPkcs8. */
static const char rsa3072[] = "308206fb020100300d06092a864886f70d0101010500048206e5308206e10201"
                              "000282018100c6fe23792566023c265287c5ac6f71541c0994d11d059ee64039"
                              "86efa21c24b51bd91d8862f9df79a4e328e3e27c83df260b25a9b43420affc44"
                              "b51e8d7525b6f29c372a405104732007527a62ed82fac73f4892a80e09682a41"
                              "a58cd347017f3be7d801334f92d9321aafd53b51bffabfc752cfccae0b1ee03b"
                              "daff9e428cc1c117f1ac96b4fe23f8c23e6381186a66fd59289339ae55c4bcda"
                              "dbff84abdaa532240d4e1d28b2d0481dadd3b246557ca8fe18092817730b39e6"
                              "ee378ffcc85b19ffdc916a9b991a6b66d4a9c7bab5f5e7a3722101142e7a4108"
                              "c15d573b15289e07e46eaea07b42c2abcba330e99554b4656165bb4c0db2b639"
                              "3a07eca575c51a93c4e15bdb0f747909447e3efe34c67ca8954b530e56a20a1b"
                              "6d84d45ed1bcd3aa58ec06f184ee5857aaa819e1cca9a26f4e28d6b977d33916"
                              "db9896d252d1afa762e287cb0d384cc75bfe53f4e922d02dd0a481c042e2d306"
                              "b4b3c189371e575b25e0005a164cf69dd0976e4d5be476806ea6be6084e71ab4"
                              "f5ac5c1b120302030100010282018072ac6bb6d9a5726e454b5430c71125c6e9"
                              "ad5fd42e1c5a18a8343e9d83d72214386b2308c0b8ec5ec6759dcfcd6a21f88b"
                              "8ceaf46403923eb86ac3d14a8592e95de0462e14085c3f17db005dc4fac87b4a"
                              "2d1ede5cf851d5745c8651a4438c0a4d746ad72e419207964728c301bf379a01"
                              "c094e9693376f721137d3dc76ee47c9790fbd590b7d6a8d626e21b277ef17a4e"
                              "4f7e0171c1146e1ec324fa97f30d3a1bae08f8d5f6e92cfc121665239c429167"
                              "359e9650434b29d2015190356adfee12f25b341b08f12b7fec6379598af7d5cc"
                              "24fe7f00de1d47133ce3ad8b6be1c9a854e33fb952e164ac6dd2a9052186ee14"
                              "4ee7dd986a8f03891d0da21ed78516dcdc2ac89cdddc8b544731d66f9d89bf17"
                              "a50c6d987a598b02c938dc36521b881ea994e4c8fb2ba8fd001f73335d4dd1bd"
                              "be177d3093cf3883657c9ff944e8f5c9cde548b7c1b0741929b0d74977ecda69"
                              "4d940aefd9d2fc75323e0b3a114b99feaf3e2518f5158d1fd9d953aa20af158e"
                              "67d27e2ce2f18d97fd02f3699819790281c100f5eca16e0e83696b0ed9ac8a81"
                              "2545daba55f20a964c4e6343604a7f2be2860fce9fa16a1cc92120939deb88df"
                              "f68550383ead851fac07ad1b2e8a9b2bb69525d96ceabb7ee83ce50f08d64910"
                              "7f449a14521a6893f3f3c5c5a703b2fc28bfcfe261a4f7f450558080deaeaab6"
                              "51c7a9ae586c1e7f5c52cda93e40aac908e4e3357984fc116af9cbe9539bc7a8"
                              "d3b351a73ea5c2413d1da2e0b448b454670aca89ffe73b1401e9b8554fc3f23d"
                              "6c904623251a1d29962ca9b26d973345bc4c5f0281c100cf25446f59cf512919"
                              "ddbfcfa2d9670495ad92b6f295d61032057f9da6dbefc4510a623c2b47a52200"
                              "82a3bc42af1a144f98c9ee4fdae41be0ec501ccc94b2b0640191099b35561116"
                              "0deb327e8ace018b898025ef470e4373ec1d97f669e298e1d845c6553c0a546c"
                              "cb168d5b510dbe6018fd4ed9a3545f9bdb81968f4a6d7c790e5c34729a8efb49"
                              "6086fa1300249ab8b28f38951d7bee1c127ac3c4d0bd596edee1e9d17781dbb8"
                              "227d7b5d76ce8b8bce03c5d339b9757981610848c55cdd0281c06357a59679d2"
                              "6801514c6940c20eb67b370e84e9f5f0f9316c0437d3cb7c843f5a6e6d9c19e8"
                              "bdb3152e93f904cfe6e692f1eed27a0ada46f95601b3d122be793dad9bdd05d4"
                              "f6d469105ecfc11448381dc154ddadf6bc20c649435b483585d68a527b7b967b"
                              "e52e35e0be9a437021c1cfa5f4771567cc233c1ce3ae99eb37daf8bd10156b4b"
                              "d580a3ce9c7d391bdbb23e67363a947405c6c812cbd3dccc8b356a2dafd0d3b2"
                              "3a21b684b458e4ab3854bcd9be04cdc9d65ceeb10a8531c470ed0281bf04dada"
                              "bfc15b1a8bdc0f566f876191088a7986f6c2b8c04ba0e0801d31cbf5d2a4139a"
                              "39cec9df14ecee22e846a7d3f4a5e8eed2a70c7a4c2cf95ce74fe42c4bf60c13"
                              "5a264919bb4cc906ba283d1896f0ae48529b490f0c85ab03068cbfee8fa6bb6a"
                              "e73b182d25cd66f5205b038b4eeaf1aafe2e1ba5de97c88d40fa1ac47626602f"
                              "c90ae694734f44f3e4e88d184e8805a755ac2904be8fe9def6b7a62cc9ebcf4d"
                              "7c2d6c9f9e86b2483e9bf22ce51861bbb4e73e731a4dbeba87772d290281c021"
                              "4a1f73130e48b336fe01b950885ecdb3443d93e7e8ca62fb0da96bd423759d8b"
                              "e552c8be44f139fbee6ec24b75fbf0744fac4daabf5488fe6c3600d9b8e9a922"
                              "481fc74a7a3d622662db8c85318de48ee8b716f19429fb594990da705ebdf7ef"
                              "6613dd6bf885c16ad65e9fe6c280386bee976c25dbaff8fbf69baed9510be5ed"
                              "ed3f90e0ba4a97e5c81a2189f114670745ab95edda215bd05fdc78929fa0cfe8"
                              "b01c83f2aec93e3ad1a334fd85aa8794eacf955ae5dacd45b268741fca195c";

/* Wycheproof testvectors_v1/rsa_pkcs1_4096_sig_gen_test.json, the first SHA-256
 * group: privateKeyPkcs8. */
static const char rsa4096[] = "30820942020100300d06092a864886f70d01010105000482092c308209280201"
                              "000282020100956353ecb7561945dc5544e4602466078c93f28507701ffd39e2"
                              "a9813c8ac8740e6ad61c955d484e513b3dcea527e001a018ee2c207c1806a967"
                              "63280236cd3c820dff79837c9b709cb4b522d3ddbc9192242259c43be75ea244"
                              "d37ccfa8a4c75024a2cf7cc76e842ea69cc7ca1227405b070047387a5068e497"
                              "6e4b8ed5f9aadd7b4db024fbb8d7bd8a040d8f6610c1c6eb1d4b606dfd182235"
                              "d0360880304d5a750603af0c424b8c8e6dbc12c3697d2d609c97547e774e2e36"
                              "2ea96d1690dc9432112c535258b3db2c4c32ad510d6c07ad0788357883869efb"
                              "8b629298724847925cf42b34386be700f02903db5852276bee2370941f397bdc"
                              "3905e30964a0b5e73602703340960c3ed6078263b611f197955fecce4b9a32e4"
                              "3cd1d2e5e87c4ceb65edc8853a7ee31d28e16e5adffb8ac7b760fbfc63d5f174"
                              "f4d0936461dbb12c964a6b6d6cee752e5fca1ab4a9fd238dd3e8860a1d763d20"
                              "19f9e7b99ed7666d4e038710f90e0093bc566987d6c0092f571376e705b342d0"
                              "66c54e6e2578927b92c1f0928de44e9a6e1f49b907c6aa4f605ec9c398d55df8"
                              "1c67373b03cc8110162fb417f96fd321048647dfcbb392455115cd912ea83351"
                              "853e6a185284648842adcbd25e67174a3b93b8a64ce2ce9de0e8577b8b662ce3"
                              "2e2565782665dd38e5bb5fcc4fe12e4320dab7773b545a09c6d39d9dbad459f2"
                              "1f3e624ee6ed020301000102820200097a59d2c4f70377793937bbbd95d19b5d"
                              "01edfb1eb3b073e27e4cfed416820d4af4e04cc3f53d272ae43551ad0cd09b89"
                              "cacb21a595f9f8423b3b0148d2ad46cf818fd9e7cbba18f4f84a1dc18f69ed5a"
                              "764c6fa191a3664fa94a39bafb1a29431e6fedf61eb9164dd7684f0cb5062481"
                              "21fa948a32c8733f3d9453dae61c8708b2500582f32d91128775265f18bcab6e"
                              "b170145e33dc40f1bab451194cf8c38f9fa91806bd225fa4b54ca50813b9d7a5"
                              "4f61e0000e5e0769cb2a3eb99b1ae9c3c5416dac83a6f91248c734d7e63291ce"
                              "12de4d780703614128f878f29015801c7a5ec7670e531e1573ebc8ce63d640b0"
                              "1b9aea48b43d1eea8ad85b55423d4e142bcf73315f3e9e978b65f05562460665"
                              "96013fad97b83ba552140c6957ef443ccec4051b2a8c9cd9f25c4cf6bdc2e904"
                              "f46063e319643283462a4047d49c38bdbb0ee3d87980ec08410d5d2dee8e5349"
                              "958e4178aba065a55d79d89080570fd4af5678b1573e42f2e0f863b31bb4e19b"
                              "a232c02ae5b8f948d1ce8145c4968d24b56ac930b4f67047257f3c0b86bce7a7"
                              "7b8d0d87124c4a4141409ac11377fb9fc805d60012386becc2ba8478e663becc"
                              "3d73239ce3036c2d2fc9e6e2e370c2c78053ee1bcef7a87872ef92b784638b84"
                              "713a5d78ba8c3a868e3466f2275b252e19766d2104ec60537bc1589b1558b766"
                              "43751f6a60fd8a5102b6c788e0f0490282010100c3c677495c2bd56619e44e26"
                              "140d2ede0037409b81f3a5b3886a0904eb486140f43b8626af13d14a33918eb7"
                              "2b786b3c9114f39017871528953c09104e1fd2d36b725388f54ffea303730778"
                              "95a6934ab174e55ca6a12c21923a7b775b5ffaffbd813f9fb752805b016a5735"
                              "b883c639fedd55ba2e233a6dc1673063d8487390d1676123544d3def177a91ca"
                              "eef98b13f38860474e44993d4c6060926d878a2059855d0de1c794ac8dbdad65"
                              "5fbbad20f152f15c73b95ac544cbb87b8bec8fd3c007ad09d76ae22a5e993302"
                              "aa72f11deb265a7f28b88976af5d0c912d97b7284b1783c5bc91a6dcb7a9b97f"
                              "e53713965857742b7e4032dc5141acd4afd4771f0282010100c357cf685f9b8d"
                              "4e59e96686f7b8752f0a982efbe6658e6bcdb615d921f5e70568828253474557"
                              "82d7bc78d637e17e0e6810c2136ad81b16cc1c81750785924616f2bdf5964b26"
                              "c7fc50fa98fb67b746b50812705b379f5deadbd11dcd2fec7b724d042aef25ce"
                              "a2eb37f85b7554d7ad49fe5f47737ff436bded418507f2f175c695e324fbb11b"
                              "eb0544a7a7cb3f07924e291b5c8ddaa6a7dbb07e23bce1960cb52b9000d3a7aa"
                              "b1f58e3c750b6d978adf3d085ae7693b7e6a46cf6dbb6d2ad981f4bca5d15e09"
                              "62c39066a9fc27985b9ba1f51132355792796a5dd847400804f98671ee489905"
                              "0bdc2e7872ce6fb2b78b1050436d882425ee0745546a6a1c730282010100a6bb"
                              "b5460638d2b2f5242aa6657760cdf3731b1415d5f2ee77248f6fe00e31bdc703"
                              "96da054ba47844791809c9fcf19f90943e671e928e23950d9f4e82aab9bc138b"
                              "37b7b1ed2219a54b67367c8574762db237d0f39cda5ff110dbac286712f69167"
                              "ad4f122b3263cf4dc8de58b9e9ade4f08e1d5543ed74223e06c9521f4a453102"
                              "91892c37e8a262e5a19b2a71decfec1dde997c00125e5158d7867dbfec946689"
                              "9d59c04b60c4a0a6c5314c1a2375a5f194dbbf37422635d426d719b12c41140f"
                              "b5806735814ec268493861002977e8982e8493a2ae78251be32315a85b75f696"
                              "1d44dfb7505c34135987a2288907074fdc015ab1c45f3cd8e91fee6bcdd30282"
                              "0100178cd58f72bf5118da141e6d351e42da69ff90e2839348c94c62a05dae0f"
                              "744b9d9ee6515ded4930980bbbd1afa8fac687db455a8bee03ce0acb80fbf7ed"
                              "2d864fabf224d27abaf12f45200123860c7d74c3c55d5051f35fa239e00b24ba"
                              "9b5b029bb05df0b8f12189141558095c32284d1c62a63d917682c700fc7e2a48"
                              "2abe1533eacf819c878e1cf37af6eab4ed97c0de89d2edb327966310f31421e8"
                              "5c6ba9c7d7b391d0cbee6a793c66abfb09630fa8cf020e960c3b205aeb15029c"
                              "95a6e558f90950a572a23a8b852507264ae2f86f5d1936a161ae61fee5d3763b"
                              "8cfbf48d35dd1159895735b350881ec52e999c255a57d6b3ac0ffa935bd36284"
                              "ea6b02820100484ad86e79415ea3c78af5f6c807cc99decfb14ca1e80c8e6a1e"
                              "f00ee582d3d180774236a54ec9dc8dbcca51f4da4379cf634f3a07cea4b7748d"
                              "7b5d94cacd4d474111f92d19f3ab5eb4def8dba57b990844efd28d85344666e2"
                              "83f5d5fb0e6e8d96f07411c882bf280446e49b3b9b15218fc24da34ce8f01e02"
                              "735920ef48a343b4de11f99b26547a251afa7aaa69083c421e2447b1a989d507"
                              "12bf8fc35882b63517c7c39843cf67b92645b68c6d8f90331600142e6cb97032"
                              "a5af6ef7c20f87630c6b25dddeb57f2cc0cd8c8a0661b5f40ed6632989f5d40f"
                              "33bbfd9be09374483606c2cd7ed8b5fcb8bf3df1f9368a13922b1240c0d25792"
                              "505b857d3e8d";

/* Wycheproof testvectors_v1/ecdh_secp256r1_test.json, tcId 1 ("normal case"): the
 * private scalar, and the peer's public key (SubjectPublicKeyInfo). */
static const char p256[] = "0612465c89a023ab17855b0a6bcebfd3febb53aef84138647b5352e02c10c346";
static const char p256_peer[] = "3059301306072a8648ce3d020106082a8648ce3d0301070342000462d5bd3372"
                                "af75fe85a040715d0f502428e07046868b0bfdfa61d731afe44f26ac333a93a9"
                                "e70a81cd5a95b5bf8d13990eb741c8c38872b4a07d275a014e30cf";

/* Wycheproof testvectors_v1/ecdh_secp384r1_test.json, tcId 1 ("normal case"): the
 * private scalar, and the peer's public key (SubjectPublicKeyInfo). */
static const char p384[] = "766e61425b2da9f846c09fc3564b93a6f8603b7392c785165bf20da948c49fd1"
                           "fb1dee4edd64356b9f21c588b75dfd81";
static const char p384_peer[] = "3076301006072a8648ce3d020106052b8104002203620004790a6e059ef9a594"
                                "0163183d4a7809135d29791643fc43a2f17ee8bf677ab84f791b64a6be15969f"
                                "fa012dd9185d8796d9b954baa8a75e82df711b3b56eadff6b0f668c3b26b4b1a"
                                "eb308a1fcc1c680d329a6705025f1c98a0b5e5bfcb163caa";

/* Wycheproof testvectors_v1/ecdh_secp521r1_test.json, tcId 1 ("normal case"): the
 * private scalar, and the peer's public key (SubjectPublicKeyInfo). */
static const char p521[] = "01939982b529596ce77a94bc6efd03e92c21a849eb4f87b8f619d506efc9bb22"
                           "e7c61640c90d598f795b64566dc6df43992ae34a1341d458574440a7371f611c"
                           "7dcd";
static const char p521_peer[] = "30819b301006072a8648ce3d020106052b8104002303818600040064da3e9473"
                                "3db536a74a0d8a5cb2265a31c54a1da6529a198377fbd38575d9d79769ca2bdf"
                                "2d4c972642926d444891a652e7f492337251adf1613cf3077999b5ce00e04ad1"
                                "9cf9fd4722b0c824c069f70c3c0e7ebc5288940dfa92422152ae4a4f79183ced"
                                "375afb54db1409ddf338b85bb6dbfc5950163346bb63a90a70c5aba098f7";

const struct cb_pk_fixed cb_pk_key_rsa2048 = {
    rsa2048, NULL, true, "Wycheproof rsa_pkcs1_2048_sig_gen_test.json (first SHA-256 group)"};
const struct cb_pk_fixed cb_pk_key_rsa3072 = {
    rsa3072, NULL, true, "Wycheproof rsa_pkcs1_3072_sig_gen_test.json (first SHA-256 group)"};
const struct cb_pk_fixed cb_pk_key_rsa4096 = {
    rsa4096, NULL, true, "Wycheproof rsa_pkcs1_4096_sig_gen_test.json (first SHA-256 group)"};
const struct cb_pk_fixed cb_pk_key_p256 = {p256, p256_peer, false,
                                           "Wycheproof ecdh_secp256r1_test.json tcId 1"};
const struct cb_pk_fixed cb_pk_key_p384 = {p384, p384_peer, false,
                                           "Wycheproof ecdh_secp384r1_test.json tcId 1"};
const struct cb_pk_fixed cb_pk_key_p521 = {p521, p521_peer, false,
                                           "Wycheproof ecdh_secp521r1_test.json tcId 1"};
