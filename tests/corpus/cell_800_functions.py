"""A very long cell: 800 generated functions, a dispatch table of all of them, 5 called directly and 40 through the table."""

import torch


def f_000(x):
    return x * 1 + 0


def f_001(x):
    return x * 2 + 1


def f_002(x):
    return x * 3 + 2


def f_003(x):
    return x * 4 + 3


def f_004(x):
    return x * 5 + 4


def f_005(x):
    return x * 6 + 0


def f_006(x):
    return x * 7 + 1


def f_007(x):
    return x * 1 + 2


def f_008(x):
    return x * 2 + 3


def f_009(x):
    return x * 3 + 4


def f_010(x):
    return x * 4 + 0


def f_011(x):
    return x * 5 + 1


def f_012(x):
    return x * 6 + 2


def f_013(x):
    return x * 7 + 3


def f_014(x):
    return x * 1 + 4


def f_015(x):
    return x * 2 + 0


def f_016(x):
    return x * 3 + 1


def f_017(x):
    return x * 4 + 2


def f_018(x):
    return x * 5 + 3


def f_019(x):
    return x * 6 + 4


def f_020(x):
    return x * 7 + 0


def f_021(x):
    return x * 1 + 1


def f_022(x):
    return x * 2 + 2


def f_023(x):
    return x * 3 + 3


def f_024(x):
    return x * 4 + 4


def f_025(x):
    return x * 5 + 0


def f_026(x):
    return x * 6 + 1


def f_027(x):
    return x * 7 + 2


def f_028(x):
    return x * 1 + 3


def f_029(x):
    return x * 2 + 4


def f_030(x):
    return x * 3 + 0


def f_031(x):
    return x * 4 + 1


def f_032(x):
    return x * 5 + 2


def f_033(x):
    return x * 6 + 3


def f_034(x):
    return x * 7 + 4


def f_035(x):
    return x * 1 + 0


def f_036(x):
    return x * 2 + 1


def f_037(x):
    return x * 3 + 2


def f_038(x):
    return x * 4 + 3


def f_039(x):
    return x * 5 + 4


def f_040(x):
    return x * 6 + 0


def f_041(x):
    return x * 7 + 1


def f_042(x):
    return x * 1 + 2


def f_043(x):
    return x * 2 + 3


def f_044(x):
    return x * 3 + 4


def f_045(x):
    return x * 4 + 0


def f_046(x):
    return x * 5 + 1


def f_047(x):
    return x * 6 + 2


def f_048(x):
    return x * 7 + 3


def f_049(x):
    return x * 1 + 4


def f_050(x):
    return x * 2 + 0


def f_051(x):
    return x * 3 + 1


def f_052(x):
    return x * 4 + 2


def f_053(x):
    return x * 5 + 3


def f_054(x):
    return x * 6 + 4


def f_055(x):
    return x * 7 + 0


def f_056(x):
    return x * 1 + 1


def f_057(x):
    return x * 2 + 2


def f_058(x):
    return x * 3 + 3


def f_059(x):
    return x * 4 + 4


def f_060(x):
    return x * 5 + 0


def f_061(x):
    return x * 6 + 1


def f_062(x):
    return x * 7 + 2


def f_063(x):
    return x * 1 + 3


def f_064(x):
    return x * 2 + 4


def f_065(x):
    return x * 3 + 0


def f_066(x):
    return x * 4 + 1


def f_067(x):
    return x * 5 + 2


def f_068(x):
    return x * 6 + 3


def f_069(x):
    return x * 7 + 4


def f_070(x):
    return x * 1 + 0


def f_071(x):
    return x * 2 + 1


def f_072(x):
    return x * 3 + 2


def f_073(x):
    return x * 4 + 3


def f_074(x):
    return x * 5 + 4


def f_075(x):
    return x * 6 + 0


def f_076(x):
    return x * 7 + 1


def f_077(x):
    return x * 1 + 2


def f_078(x):
    return x * 2 + 3


def f_079(x):
    return x * 3 + 4


def f_080(x):
    return x * 4 + 0


def f_081(x):
    return x * 5 + 1


def f_082(x):
    return x * 6 + 2


def f_083(x):
    return x * 7 + 3


def f_084(x):
    return x * 1 + 4


def f_085(x):
    return x * 2 + 0


def f_086(x):
    return x * 3 + 1


def f_087(x):
    return x * 4 + 2


def f_088(x):
    return x * 5 + 3


def f_089(x):
    return x * 6 + 4


def f_090(x):
    return x * 7 + 0


def f_091(x):
    return x * 1 + 1


def f_092(x):
    return x * 2 + 2


def f_093(x):
    return x * 3 + 3


def f_094(x):
    return x * 4 + 4


def f_095(x):
    return x * 5 + 0


def f_096(x):
    return x * 6 + 1


def f_097(x):
    return x * 7 + 2


def f_098(x):
    return x * 1 + 3


def f_099(x):
    return x * 2 + 4


def f_100(x):
    return x * 3 + 0


def f_101(x):
    return x * 4 + 1


def f_102(x):
    return x * 5 + 2


def f_103(x):
    return x * 6 + 3


def f_104(x):
    return x * 7 + 4


def f_105(x):
    return x * 1 + 0


def f_106(x):
    return x * 2 + 1


def f_107(x):
    return x * 3 + 2


def f_108(x):
    return x * 4 + 3


def f_109(x):
    return x * 5 + 4


def f_110(x):
    return x * 6 + 0


def f_111(x):
    return x * 7 + 1


def f_112(x):
    return x * 1 + 2


def f_113(x):
    return x * 2 + 3


def f_114(x):
    return x * 3 + 4


def f_115(x):
    return x * 4 + 0


def f_116(x):
    return x * 5 + 1


def f_117(x):
    return x * 6 + 2


def f_118(x):
    return x * 7 + 3


def f_119(x):
    return x * 1 + 4


def f_120(x):
    return x * 2 + 0


def f_121(x):
    return x * 3 + 1


def f_122(x):
    return x * 4 + 2


def f_123(x):
    return x * 5 + 3


def f_124(x):
    return x * 6 + 4


def f_125(x):
    return x * 7 + 0


def f_126(x):
    return x * 1 + 1


def f_127(x):
    return x * 2 + 2


def f_128(x):
    return x * 3 + 3


def f_129(x):
    return x * 4 + 4


def f_130(x):
    return x * 5 + 0


def f_131(x):
    return x * 6 + 1


def f_132(x):
    return x * 7 + 2


def f_133(x):
    return x * 1 + 3


def f_134(x):
    return x * 2 + 4


def f_135(x):
    return x * 3 + 0


def f_136(x):
    return x * 4 + 1


def f_137(x):
    return x * 5 + 2


def f_138(x):
    return x * 6 + 3


def f_139(x):
    return x * 7 + 4


def f_140(x):
    return x * 1 + 0


def f_141(x):
    return x * 2 + 1


def f_142(x):
    return x * 3 + 2


def f_143(x):
    return x * 4 + 3


def f_144(x):
    return x * 5 + 4


def f_145(x):
    return x * 6 + 0


def f_146(x):
    return x * 7 + 1


def f_147(x):
    return x * 1 + 2


def f_148(x):
    return x * 2 + 3


def f_149(x):
    return x * 3 + 4


def f_150(x):
    return x * 4 + 0


def f_151(x):
    return x * 5 + 1


def f_152(x):
    return x * 6 + 2


def f_153(x):
    return x * 7 + 3


def f_154(x):
    return x * 1 + 4


def f_155(x):
    return x * 2 + 0


def f_156(x):
    return x * 3 + 1


def f_157(x):
    return x * 4 + 2


def f_158(x):
    return x * 5 + 3


def f_159(x):
    return x * 6 + 4


def f_160(x):
    return x * 7 + 0


def f_161(x):
    return x * 1 + 1


def f_162(x):
    return x * 2 + 2


def f_163(x):
    return x * 3 + 3


def f_164(x):
    return x * 4 + 4


def f_165(x):
    return x * 5 + 0


def f_166(x):
    return x * 6 + 1


def f_167(x):
    return x * 7 + 2


def f_168(x):
    return x * 1 + 3


def f_169(x):
    return x * 2 + 4


def f_170(x):
    return x * 3 + 0


def f_171(x):
    return x * 4 + 1


def f_172(x):
    return x * 5 + 2


def f_173(x):
    return x * 6 + 3


def f_174(x):
    return x * 7 + 4


def f_175(x):
    return x * 1 + 0


def f_176(x):
    return x * 2 + 1


def f_177(x):
    return x * 3 + 2


def f_178(x):
    return x * 4 + 3


def f_179(x):
    return x * 5 + 4


def f_180(x):
    return x * 6 + 0


def f_181(x):
    return x * 7 + 1


def f_182(x):
    return x * 1 + 2


def f_183(x):
    return x * 2 + 3


def f_184(x):
    return x * 3 + 4


def f_185(x):
    return x * 4 + 0


def f_186(x):
    return x * 5 + 1


def f_187(x):
    return x * 6 + 2


def f_188(x):
    return x * 7 + 3


def f_189(x):
    return x * 1 + 4


def f_190(x):
    return x * 2 + 0


def f_191(x):
    return x * 3 + 1


def f_192(x):
    return x * 4 + 2


def f_193(x):
    return x * 5 + 3


def f_194(x):
    return x * 6 + 4


def f_195(x):
    return x * 7 + 0


def f_196(x):
    return x * 1 + 1


def f_197(x):
    return x * 2 + 2


def f_198(x):
    return x * 3 + 3


def f_199(x):
    return x * 4 + 4


def f_200(x):
    return x * 5 + 0


def f_201(x):
    return x * 6 + 1


def f_202(x):
    return x * 7 + 2


def f_203(x):
    return x * 1 + 3


def f_204(x):
    return x * 2 + 4


def f_205(x):
    return x * 3 + 0


def f_206(x):
    return x * 4 + 1


def f_207(x):
    return x * 5 + 2


def f_208(x):
    return x * 6 + 3


def f_209(x):
    return x * 7 + 4


def f_210(x):
    return x * 1 + 0


def f_211(x):
    return x * 2 + 1


def f_212(x):
    return x * 3 + 2


def f_213(x):
    return x * 4 + 3


def f_214(x):
    return x * 5 + 4


def f_215(x):
    return x * 6 + 0


def f_216(x):
    return x * 7 + 1


def f_217(x):
    return x * 1 + 2


def f_218(x):
    return x * 2 + 3


def f_219(x):
    return x * 3 + 4


def f_220(x):
    return x * 4 + 0


def f_221(x):
    return x * 5 + 1


def f_222(x):
    return x * 6 + 2


def f_223(x):
    return x * 7 + 3


def f_224(x):
    return x * 1 + 4


def f_225(x):
    return x * 2 + 0


def f_226(x):
    return x * 3 + 1


def f_227(x):
    return x * 4 + 2


def f_228(x):
    return x * 5 + 3


def f_229(x):
    return x * 6 + 4


def f_230(x):
    return x * 7 + 0


def f_231(x):
    return x * 1 + 1


def f_232(x):
    return x * 2 + 2


def f_233(x):
    return x * 3 + 3


def f_234(x):
    return x * 4 + 4


def f_235(x):
    return x * 5 + 0


def f_236(x):
    return x * 6 + 1


def f_237(x):
    return x * 7 + 2


def f_238(x):
    return x * 1 + 3


def f_239(x):
    return x * 2 + 4


def f_240(x):
    return x * 3 + 0


def f_241(x):
    return x * 4 + 1


def f_242(x):
    return x * 5 + 2


def f_243(x):
    return x * 6 + 3


def f_244(x):
    return x * 7 + 4


def f_245(x):
    return x * 1 + 0


def f_246(x):
    return x * 2 + 1


def f_247(x):
    return x * 3 + 2


def f_248(x):
    return x * 4 + 3


def f_249(x):
    return x * 5 + 4


def f_250(x):
    return x * 6 + 0


def f_251(x):
    return x * 7 + 1


def f_252(x):
    return x * 1 + 2


def f_253(x):
    return x * 2 + 3


def f_254(x):
    return x * 3 + 4


def f_255(x):
    return x * 4 + 0


def f_256(x):
    return x * 5 + 1


def f_257(x):
    return x * 6 + 2


def f_258(x):
    return x * 7 + 3


def f_259(x):
    return x * 1 + 4


def f_260(x):
    return x * 2 + 0


def f_261(x):
    return x * 3 + 1


def f_262(x):
    return x * 4 + 2


def f_263(x):
    return x * 5 + 3


def f_264(x):
    return x * 6 + 4


def f_265(x):
    return x * 7 + 0


def f_266(x):
    return x * 1 + 1


def f_267(x):
    return x * 2 + 2


def f_268(x):
    return x * 3 + 3


def f_269(x):
    return x * 4 + 4


def f_270(x):
    return x * 5 + 0


def f_271(x):
    return x * 6 + 1


def f_272(x):
    return x * 7 + 2


def f_273(x):
    return x * 1 + 3


def f_274(x):
    return x * 2 + 4


def f_275(x):
    return x * 3 + 0


def f_276(x):
    return x * 4 + 1


def f_277(x):
    return x * 5 + 2


def f_278(x):
    return x * 6 + 3


def f_279(x):
    return x * 7 + 4


def f_280(x):
    return x * 1 + 0


def f_281(x):
    return x * 2 + 1


def f_282(x):
    return x * 3 + 2


def f_283(x):
    return x * 4 + 3


def f_284(x):
    return x * 5 + 4


def f_285(x):
    return x * 6 + 0


def f_286(x):
    return x * 7 + 1


def f_287(x):
    return x * 1 + 2


def f_288(x):
    return x * 2 + 3


def f_289(x):
    return x * 3 + 4


def f_290(x):
    return x * 4 + 0


def f_291(x):
    return x * 5 + 1


def f_292(x):
    return x * 6 + 2


def f_293(x):
    return x * 7 + 3


def f_294(x):
    return x * 1 + 4


def f_295(x):
    return x * 2 + 0


def f_296(x):
    return x * 3 + 1


def f_297(x):
    return x * 4 + 2


def f_298(x):
    return x * 5 + 3


def f_299(x):
    return x * 6 + 4


def f_300(x):
    return x * 7 + 0


def f_301(x):
    return x * 1 + 1


def f_302(x):
    return x * 2 + 2


def f_303(x):
    return x * 3 + 3


def f_304(x):
    return x * 4 + 4


def f_305(x):
    return x * 5 + 0


def f_306(x):
    return x * 6 + 1


def f_307(x):
    return x * 7 + 2


def f_308(x):
    return x * 1 + 3


def f_309(x):
    return x * 2 + 4


def f_310(x):
    return x * 3 + 0


def f_311(x):
    return x * 4 + 1


def f_312(x):
    return x * 5 + 2


def f_313(x):
    return x * 6 + 3


def f_314(x):
    return x * 7 + 4


def f_315(x):
    return x * 1 + 0


def f_316(x):
    return x * 2 + 1


def f_317(x):
    return x * 3 + 2


def f_318(x):
    return x * 4 + 3


def f_319(x):
    return x * 5 + 4


def f_320(x):
    return x * 6 + 0


def f_321(x):
    return x * 7 + 1


def f_322(x):
    return x * 1 + 2


def f_323(x):
    return x * 2 + 3


def f_324(x):
    return x * 3 + 4


def f_325(x):
    return x * 4 + 0


def f_326(x):
    return x * 5 + 1


def f_327(x):
    return x * 6 + 2


def f_328(x):
    return x * 7 + 3


def f_329(x):
    return x * 1 + 4


def f_330(x):
    return x * 2 + 0


def f_331(x):
    return x * 3 + 1


def f_332(x):
    return x * 4 + 2


def f_333(x):
    return x * 5 + 3


def f_334(x):
    return x * 6 + 4


def f_335(x):
    return x * 7 + 0


def f_336(x):
    return x * 1 + 1


def f_337(x):
    return x * 2 + 2


def f_338(x):
    return x * 3 + 3


def f_339(x):
    return x * 4 + 4


def f_340(x):
    return x * 5 + 0


def f_341(x):
    return x * 6 + 1


def f_342(x):
    return x * 7 + 2


def f_343(x):
    return x * 1 + 3


def f_344(x):
    return x * 2 + 4


def f_345(x):
    return x * 3 + 0


def f_346(x):
    return x * 4 + 1


def f_347(x):
    return x * 5 + 2


def f_348(x):
    return x * 6 + 3


def f_349(x):
    return x * 7 + 4


def f_350(x):
    return x * 1 + 0


def f_351(x):
    return x * 2 + 1


def f_352(x):
    return x * 3 + 2


def f_353(x):
    return x * 4 + 3


def f_354(x):
    return x * 5 + 4


def f_355(x):
    return x * 6 + 0


def f_356(x):
    return x * 7 + 1


def f_357(x):
    return x * 1 + 2


def f_358(x):
    return x * 2 + 3


def f_359(x):
    return x * 3 + 4


def f_360(x):
    return x * 4 + 0


def f_361(x):
    return x * 5 + 1


def f_362(x):
    return x * 6 + 2


def f_363(x):
    return x * 7 + 3


def f_364(x):
    return x * 1 + 4


def f_365(x):
    return x * 2 + 0


def f_366(x):
    return x * 3 + 1


def f_367(x):
    return x * 4 + 2


def f_368(x):
    return x * 5 + 3


def f_369(x):
    return x * 6 + 4


def f_370(x):
    return x * 7 + 0


def f_371(x):
    return x * 1 + 1


def f_372(x):
    return x * 2 + 2


def f_373(x):
    return x * 3 + 3


def f_374(x):
    return x * 4 + 4


def f_375(x):
    return x * 5 + 0


def f_376(x):
    return x * 6 + 1


def f_377(x):
    return x * 7 + 2


def f_378(x):
    return x * 1 + 3


def f_379(x):
    return x * 2 + 4


def f_380(x):
    return x * 3 + 0


def f_381(x):
    return x * 4 + 1


def f_382(x):
    return x * 5 + 2


def f_383(x):
    return x * 6 + 3


def f_384(x):
    return x * 7 + 4


def f_385(x):
    return x * 1 + 0


def f_386(x):
    return x * 2 + 1


def f_387(x):
    return x * 3 + 2


def f_388(x):
    return x * 4 + 3


def f_389(x):
    return x * 5 + 4


def f_390(x):
    return x * 6 + 0


def f_391(x):
    return x * 7 + 1


def f_392(x):
    return x * 1 + 2


def f_393(x):
    return x * 2 + 3


def f_394(x):
    return x * 3 + 4


def f_395(x):
    return x * 4 + 0


def f_396(x):
    return x * 5 + 1


def f_397(x):
    return x * 6 + 2


def f_398(x):
    return x * 7 + 3


def f_399(x):
    return x * 1 + 4


def f_400(x):
    return x * 2 + 0


def f_401(x):
    return x * 3 + 1


def f_402(x):
    return x * 4 + 2


def f_403(x):
    return x * 5 + 3


def f_404(x):
    return x * 6 + 4


def f_405(x):
    return x * 7 + 0


def f_406(x):
    return x * 1 + 1


def f_407(x):
    return x * 2 + 2


def f_408(x):
    return x * 3 + 3


def f_409(x):
    return x * 4 + 4


def f_410(x):
    return x * 5 + 0


def f_411(x):
    return x * 6 + 1


def f_412(x):
    return x * 7 + 2


def f_413(x):
    return x * 1 + 3


def f_414(x):
    return x * 2 + 4


def f_415(x):
    return x * 3 + 0


def f_416(x):
    return x * 4 + 1


def f_417(x):
    return x * 5 + 2


def f_418(x):
    return x * 6 + 3


def f_419(x):
    return x * 7 + 4


def f_420(x):
    return x * 1 + 0


def f_421(x):
    return x * 2 + 1


def f_422(x):
    return x * 3 + 2


def f_423(x):
    return x * 4 + 3


def f_424(x):
    return x * 5 + 4


def f_425(x):
    return x * 6 + 0


def f_426(x):
    return x * 7 + 1


def f_427(x):
    return x * 1 + 2


def f_428(x):
    return x * 2 + 3


def f_429(x):
    return x * 3 + 4


def f_430(x):
    return x * 4 + 0


def f_431(x):
    return x * 5 + 1


def f_432(x):
    return x * 6 + 2


def f_433(x):
    return x * 7 + 3


def f_434(x):
    return x * 1 + 4


def f_435(x):
    return x * 2 + 0


def f_436(x):
    return x * 3 + 1


def f_437(x):
    return x * 4 + 2


def f_438(x):
    return x * 5 + 3


def f_439(x):
    return x * 6 + 4


def f_440(x):
    return x * 7 + 0


def f_441(x):
    return x * 1 + 1


def f_442(x):
    return x * 2 + 2


def f_443(x):
    return x * 3 + 3


def f_444(x):
    return x * 4 + 4


def f_445(x):
    return x * 5 + 0


def f_446(x):
    return x * 6 + 1


def f_447(x):
    return x * 7 + 2


def f_448(x):
    return x * 1 + 3


def f_449(x):
    return x * 2 + 4


def f_450(x):
    return x * 3 + 0


def f_451(x):
    return x * 4 + 1


def f_452(x):
    return x * 5 + 2


def f_453(x):
    return x * 6 + 3


def f_454(x):
    return x * 7 + 4


def f_455(x):
    return x * 1 + 0


def f_456(x):
    return x * 2 + 1


def f_457(x):
    return x * 3 + 2


def f_458(x):
    return x * 4 + 3


def f_459(x):
    return x * 5 + 4


def f_460(x):
    return x * 6 + 0


def f_461(x):
    return x * 7 + 1


def f_462(x):
    return x * 1 + 2


def f_463(x):
    return x * 2 + 3


def f_464(x):
    return x * 3 + 4


def f_465(x):
    return x * 4 + 0


def f_466(x):
    return x * 5 + 1


def f_467(x):
    return x * 6 + 2


def f_468(x):
    return x * 7 + 3


def f_469(x):
    return x * 1 + 4


def f_470(x):
    return x * 2 + 0


def f_471(x):
    return x * 3 + 1


def f_472(x):
    return x * 4 + 2


def f_473(x):
    return x * 5 + 3


def f_474(x):
    return x * 6 + 4


def f_475(x):
    return x * 7 + 0


def f_476(x):
    return x * 1 + 1


def f_477(x):
    return x * 2 + 2


def f_478(x):
    return x * 3 + 3


def f_479(x):
    return x * 4 + 4


def f_480(x):
    return x * 5 + 0


def f_481(x):
    return x * 6 + 1


def f_482(x):
    return x * 7 + 2


def f_483(x):
    return x * 1 + 3


def f_484(x):
    return x * 2 + 4


def f_485(x):
    return x * 3 + 0


def f_486(x):
    return x * 4 + 1


def f_487(x):
    return x * 5 + 2


def f_488(x):
    return x * 6 + 3


def f_489(x):
    return x * 7 + 4


def f_490(x):
    return x * 1 + 0


def f_491(x):
    return x * 2 + 1


def f_492(x):
    return x * 3 + 2


def f_493(x):
    return x * 4 + 3


def f_494(x):
    return x * 5 + 4


def f_495(x):
    return x * 6 + 0


def f_496(x):
    return x * 7 + 1


def f_497(x):
    return x * 1 + 2


def f_498(x):
    return x * 2 + 3


def f_499(x):
    return x * 3 + 4


def f_500(x):
    return x * 4 + 0


def f_501(x):
    return x * 5 + 1


def f_502(x):
    return x * 6 + 2


def f_503(x):
    return x * 7 + 3


def f_504(x):
    return x * 1 + 4


def f_505(x):
    return x * 2 + 0


def f_506(x):
    return x * 3 + 1


def f_507(x):
    return x * 4 + 2


def f_508(x):
    return x * 5 + 3


def f_509(x):
    return x * 6 + 4


def f_510(x):
    return x * 7 + 0


def f_511(x):
    return x * 1 + 1


def f_512(x):
    return x * 2 + 2


def f_513(x):
    return x * 3 + 3


def f_514(x):
    return x * 4 + 4


def f_515(x):
    return x * 5 + 0


def f_516(x):
    return x * 6 + 1


def f_517(x):
    return x * 7 + 2


def f_518(x):
    return x * 1 + 3


def f_519(x):
    return x * 2 + 4


def f_520(x):
    return x * 3 + 0


def f_521(x):
    return x * 4 + 1


def f_522(x):
    return x * 5 + 2


def f_523(x):
    return x * 6 + 3


def f_524(x):
    return x * 7 + 4


def f_525(x):
    return x * 1 + 0


def f_526(x):
    return x * 2 + 1


def f_527(x):
    return x * 3 + 2


def f_528(x):
    return x * 4 + 3


def f_529(x):
    return x * 5 + 4


def f_530(x):
    return x * 6 + 0


def f_531(x):
    return x * 7 + 1


def f_532(x):
    return x * 1 + 2


def f_533(x):
    return x * 2 + 3


def f_534(x):
    return x * 3 + 4


def f_535(x):
    return x * 4 + 0


def f_536(x):
    return x * 5 + 1


def f_537(x):
    return x * 6 + 2


def f_538(x):
    return x * 7 + 3


def f_539(x):
    return x * 1 + 4


def f_540(x):
    return x * 2 + 0


def f_541(x):
    return x * 3 + 1


def f_542(x):
    return x * 4 + 2


def f_543(x):
    return x * 5 + 3


def f_544(x):
    return x * 6 + 4


def f_545(x):
    return x * 7 + 0


def f_546(x):
    return x * 1 + 1


def f_547(x):
    return x * 2 + 2


def f_548(x):
    return x * 3 + 3


def f_549(x):
    return x * 4 + 4


def f_550(x):
    return x * 5 + 0


def f_551(x):
    return x * 6 + 1


def f_552(x):
    return x * 7 + 2


def f_553(x):
    return x * 1 + 3


def f_554(x):
    return x * 2 + 4


def f_555(x):
    return x * 3 + 0


def f_556(x):
    return x * 4 + 1


def f_557(x):
    return x * 5 + 2


def f_558(x):
    return x * 6 + 3


def f_559(x):
    return x * 7 + 4


def f_560(x):
    return x * 1 + 0


def f_561(x):
    return x * 2 + 1


def f_562(x):
    return x * 3 + 2


def f_563(x):
    return x * 4 + 3


def f_564(x):
    return x * 5 + 4


def f_565(x):
    return x * 6 + 0


def f_566(x):
    return x * 7 + 1


def f_567(x):
    return x * 1 + 2


def f_568(x):
    return x * 2 + 3


def f_569(x):
    return x * 3 + 4


def f_570(x):
    return x * 4 + 0


def f_571(x):
    return x * 5 + 1


def f_572(x):
    return x * 6 + 2


def f_573(x):
    return x * 7 + 3


def f_574(x):
    return x * 1 + 4


def f_575(x):
    return x * 2 + 0


def f_576(x):
    return x * 3 + 1


def f_577(x):
    return x * 4 + 2


def f_578(x):
    return x * 5 + 3


def f_579(x):
    return x * 6 + 4


def f_580(x):
    return x * 7 + 0


def f_581(x):
    return x * 1 + 1


def f_582(x):
    return x * 2 + 2


def f_583(x):
    return x * 3 + 3


def f_584(x):
    return x * 4 + 4


def f_585(x):
    return x * 5 + 0


def f_586(x):
    return x * 6 + 1


def f_587(x):
    return x * 7 + 2


def f_588(x):
    return x * 1 + 3


def f_589(x):
    return x * 2 + 4


def f_590(x):
    return x * 3 + 0


def f_591(x):
    return x * 4 + 1


def f_592(x):
    return x * 5 + 2


def f_593(x):
    return x * 6 + 3


def f_594(x):
    return x * 7 + 4


def f_595(x):
    return x * 1 + 0


def f_596(x):
    return x * 2 + 1


def f_597(x):
    return x * 3 + 2


def f_598(x):
    return x * 4 + 3


def f_599(x):
    return x * 5 + 4


def f_600(x):
    return x * 6 + 0


def f_601(x):
    return x * 7 + 1


def f_602(x):
    return x * 1 + 2


def f_603(x):
    return x * 2 + 3


def f_604(x):
    return x * 3 + 4


def f_605(x):
    return x * 4 + 0


def f_606(x):
    return x * 5 + 1


def f_607(x):
    return x * 6 + 2


def f_608(x):
    return x * 7 + 3


def f_609(x):
    return x * 1 + 4


def f_610(x):
    return x * 2 + 0


def f_611(x):
    return x * 3 + 1


def f_612(x):
    return x * 4 + 2


def f_613(x):
    return x * 5 + 3


def f_614(x):
    return x * 6 + 4


def f_615(x):
    return x * 7 + 0


def f_616(x):
    return x * 1 + 1


def f_617(x):
    return x * 2 + 2


def f_618(x):
    return x * 3 + 3


def f_619(x):
    return x * 4 + 4


def f_620(x):
    return x * 5 + 0


def f_621(x):
    return x * 6 + 1


def f_622(x):
    return x * 7 + 2


def f_623(x):
    return x * 1 + 3


def f_624(x):
    return x * 2 + 4


def f_625(x):
    return x * 3 + 0


def f_626(x):
    return x * 4 + 1


def f_627(x):
    return x * 5 + 2


def f_628(x):
    return x * 6 + 3


def f_629(x):
    return x * 7 + 4


def f_630(x):
    return x * 1 + 0


def f_631(x):
    return x * 2 + 1


def f_632(x):
    return x * 3 + 2


def f_633(x):
    return x * 4 + 3


def f_634(x):
    return x * 5 + 4


def f_635(x):
    return x * 6 + 0


def f_636(x):
    return x * 7 + 1


def f_637(x):
    return x * 1 + 2


def f_638(x):
    return x * 2 + 3


def f_639(x):
    return x * 3 + 4


def f_640(x):
    return x * 4 + 0


def f_641(x):
    return x * 5 + 1


def f_642(x):
    return x * 6 + 2


def f_643(x):
    return x * 7 + 3


def f_644(x):
    return x * 1 + 4


def f_645(x):
    return x * 2 + 0


def f_646(x):
    return x * 3 + 1


def f_647(x):
    return x * 4 + 2


def f_648(x):
    return x * 5 + 3


def f_649(x):
    return x * 6 + 4


def f_650(x):
    return x * 7 + 0


def f_651(x):
    return x * 1 + 1


def f_652(x):
    return x * 2 + 2


def f_653(x):
    return x * 3 + 3


def f_654(x):
    return x * 4 + 4


def f_655(x):
    return x * 5 + 0


def f_656(x):
    return x * 6 + 1


def f_657(x):
    return x * 7 + 2


def f_658(x):
    return x * 1 + 3


def f_659(x):
    return x * 2 + 4


def f_660(x):
    return x * 3 + 0


def f_661(x):
    return x * 4 + 1


def f_662(x):
    return x * 5 + 2


def f_663(x):
    return x * 6 + 3


def f_664(x):
    return x * 7 + 4


def f_665(x):
    return x * 1 + 0


def f_666(x):
    return x * 2 + 1


def f_667(x):
    return x * 3 + 2


def f_668(x):
    return x * 4 + 3


def f_669(x):
    return x * 5 + 4


def f_670(x):
    return x * 6 + 0


def f_671(x):
    return x * 7 + 1


def f_672(x):
    return x * 1 + 2


def f_673(x):
    return x * 2 + 3


def f_674(x):
    return x * 3 + 4


def f_675(x):
    return x * 4 + 0


def f_676(x):
    return x * 5 + 1


def f_677(x):
    return x * 6 + 2


def f_678(x):
    return x * 7 + 3


def f_679(x):
    return x * 1 + 4


def f_680(x):
    return x * 2 + 0


def f_681(x):
    return x * 3 + 1


def f_682(x):
    return x * 4 + 2


def f_683(x):
    return x * 5 + 3


def f_684(x):
    return x * 6 + 4


def f_685(x):
    return x * 7 + 0


def f_686(x):
    return x * 1 + 1


def f_687(x):
    return x * 2 + 2


def f_688(x):
    return x * 3 + 3


def f_689(x):
    return x * 4 + 4


def f_690(x):
    return x * 5 + 0


def f_691(x):
    return x * 6 + 1


def f_692(x):
    return x * 7 + 2


def f_693(x):
    return x * 1 + 3


def f_694(x):
    return x * 2 + 4


def f_695(x):
    return x * 3 + 0


def f_696(x):
    return x * 4 + 1


def f_697(x):
    return x * 5 + 2


def f_698(x):
    return x * 6 + 3


def f_699(x):
    return x * 7 + 4


def f_700(x):
    return x * 1 + 0


def f_701(x):
    return x * 2 + 1


def f_702(x):
    return x * 3 + 2


def f_703(x):
    return x * 4 + 3


def f_704(x):
    return x * 5 + 4


def f_705(x):
    return x * 6 + 0


def f_706(x):
    return x * 7 + 1


def f_707(x):
    return x * 1 + 2


def f_708(x):
    return x * 2 + 3


def f_709(x):
    return x * 3 + 4


def f_710(x):
    return x * 4 + 0


def f_711(x):
    return x * 5 + 1


def f_712(x):
    return x * 6 + 2


def f_713(x):
    return x * 7 + 3


def f_714(x):
    return x * 1 + 4


def f_715(x):
    return x * 2 + 0


def f_716(x):
    return x * 3 + 1


def f_717(x):
    return x * 4 + 2


def f_718(x):
    return x * 5 + 3


def f_719(x):
    return x * 6 + 4


def f_720(x):
    return x * 7 + 0


def f_721(x):
    return x * 1 + 1


def f_722(x):
    return x * 2 + 2


def f_723(x):
    return x * 3 + 3


def f_724(x):
    return x * 4 + 4


def f_725(x):
    return x * 5 + 0


def f_726(x):
    return x * 6 + 1


def f_727(x):
    return x * 7 + 2


def f_728(x):
    return x * 1 + 3


def f_729(x):
    return x * 2 + 4


def f_730(x):
    return x * 3 + 0


def f_731(x):
    return x * 4 + 1


def f_732(x):
    return x * 5 + 2


def f_733(x):
    return x * 6 + 3


def f_734(x):
    return x * 7 + 4


def f_735(x):
    return x * 1 + 0


def f_736(x):
    return x * 2 + 1


def f_737(x):
    return x * 3 + 2


def f_738(x):
    return x * 4 + 3


def f_739(x):
    return x * 5 + 4


def f_740(x):
    return x * 6 + 0


def f_741(x):
    return x * 7 + 1


def f_742(x):
    return x * 1 + 2


def f_743(x):
    return x * 2 + 3


def f_744(x):
    return x * 3 + 4


def f_745(x):
    return x * 4 + 0


def f_746(x):
    return x * 5 + 1


def f_747(x):
    return x * 6 + 2


def f_748(x):
    return x * 7 + 3


def f_749(x):
    return x * 1 + 4


def f_750(x):
    return x * 2 + 0


def f_751(x):
    return x * 3 + 1


def f_752(x):
    return x * 4 + 2


def f_753(x):
    return x * 5 + 3


def f_754(x):
    return x * 6 + 4


def f_755(x):
    return x * 7 + 0


def f_756(x):
    return x * 1 + 1


def f_757(x):
    return x * 2 + 2


def f_758(x):
    return x * 3 + 3


def f_759(x):
    return x * 4 + 4


def f_760(x):
    return x * 5 + 0


def f_761(x):
    return x * 6 + 1


def f_762(x):
    return x * 7 + 2


def f_763(x):
    return x * 1 + 3


def f_764(x):
    return x * 2 + 4


def f_765(x):
    return x * 3 + 0


def f_766(x):
    return x * 4 + 1


def f_767(x):
    return x * 5 + 2


def f_768(x):
    return x * 6 + 3


def f_769(x):
    return x * 7 + 4


def f_770(x):
    return x * 1 + 0


def f_771(x):
    return x * 2 + 1


def f_772(x):
    return x * 3 + 2


def f_773(x):
    return x * 4 + 3


def f_774(x):
    return x * 5 + 4


def f_775(x):
    return x * 6 + 0


def f_776(x):
    return x * 7 + 1


def f_777(x):
    return x * 1 + 2


def f_778(x):
    return x * 2 + 3


def f_779(x):
    return x * 3 + 4


def f_780(x):
    return x * 4 + 0


def f_781(x):
    return x * 5 + 1


def f_782(x):
    return x * 6 + 2


def f_783(x):
    return x * 7 + 3


def f_784(x):
    return x * 1 + 4


def f_785(x):
    return x * 2 + 0


def f_786(x):
    return x * 3 + 1


def f_787(x):
    return x * 4 + 2


def f_788(x):
    return x * 5 + 3


def f_789(x):
    return x * 6 + 4


def f_790(x):
    return x * 7 + 0


def f_791(x):
    return x * 1 + 1


def f_792(x):
    return x * 2 + 2


def f_793(x):
    return x * 3 + 3


def f_794(x):
    return x * 4 + 4


def f_795(x):
    return x * 5 + 0


def f_796(x):
    return x * 6 + 1


def f_797(x):
    return x * 7 + 2


def f_798(x):
    return x * 1 + 3


def f_799(x):
    return x * 2 + 4


TABLE = [
    f_000,
    f_001,
    f_002,
    f_003,
    f_004,
    f_005,
    f_006,
    f_007,
    f_008,
    f_009,
    f_010,
    f_011,
    f_012,
    f_013,
    f_014,
    f_015,
    f_016,
    f_017,
    f_018,
    f_019,
    f_020,
    f_021,
    f_022,
    f_023,
    f_024,
    f_025,
    f_026,
    f_027,
    f_028,
    f_029,
    f_030,
    f_031,
    f_032,
    f_033,
    f_034,
    f_035,
    f_036,
    f_037,
    f_038,
    f_039,
    f_040,
    f_041,
    f_042,
    f_043,
    f_044,
    f_045,
    f_046,
    f_047,
    f_048,
    f_049,
    f_050,
    f_051,
    f_052,
    f_053,
    f_054,
    f_055,
    f_056,
    f_057,
    f_058,
    f_059,
    f_060,
    f_061,
    f_062,
    f_063,
    f_064,
    f_065,
    f_066,
    f_067,
    f_068,
    f_069,
    f_070,
    f_071,
    f_072,
    f_073,
    f_074,
    f_075,
    f_076,
    f_077,
    f_078,
    f_079,
    f_080,
    f_081,
    f_082,
    f_083,
    f_084,
    f_085,
    f_086,
    f_087,
    f_088,
    f_089,
    f_090,
    f_091,
    f_092,
    f_093,
    f_094,
    f_095,
    f_096,
    f_097,
    f_098,
    f_099,
    f_100,
    f_101,
    f_102,
    f_103,
    f_104,
    f_105,
    f_106,
    f_107,
    f_108,
    f_109,
    f_110,
    f_111,
    f_112,
    f_113,
    f_114,
    f_115,
    f_116,
    f_117,
    f_118,
    f_119,
    f_120,
    f_121,
    f_122,
    f_123,
    f_124,
    f_125,
    f_126,
    f_127,
    f_128,
    f_129,
    f_130,
    f_131,
    f_132,
    f_133,
    f_134,
    f_135,
    f_136,
    f_137,
    f_138,
    f_139,
    f_140,
    f_141,
    f_142,
    f_143,
    f_144,
    f_145,
    f_146,
    f_147,
    f_148,
    f_149,
    f_150,
    f_151,
    f_152,
    f_153,
    f_154,
    f_155,
    f_156,
    f_157,
    f_158,
    f_159,
    f_160,
    f_161,
    f_162,
    f_163,
    f_164,
    f_165,
    f_166,
    f_167,
    f_168,
    f_169,
    f_170,
    f_171,
    f_172,
    f_173,
    f_174,
    f_175,
    f_176,
    f_177,
    f_178,
    f_179,
    f_180,
    f_181,
    f_182,
    f_183,
    f_184,
    f_185,
    f_186,
    f_187,
    f_188,
    f_189,
    f_190,
    f_191,
    f_192,
    f_193,
    f_194,
    f_195,
    f_196,
    f_197,
    f_198,
    f_199,
    f_200,
    f_201,
    f_202,
    f_203,
    f_204,
    f_205,
    f_206,
    f_207,
    f_208,
    f_209,
    f_210,
    f_211,
    f_212,
    f_213,
    f_214,
    f_215,
    f_216,
    f_217,
    f_218,
    f_219,
    f_220,
    f_221,
    f_222,
    f_223,
    f_224,
    f_225,
    f_226,
    f_227,
    f_228,
    f_229,
    f_230,
    f_231,
    f_232,
    f_233,
    f_234,
    f_235,
    f_236,
    f_237,
    f_238,
    f_239,
    f_240,
    f_241,
    f_242,
    f_243,
    f_244,
    f_245,
    f_246,
    f_247,
    f_248,
    f_249,
    f_250,
    f_251,
    f_252,
    f_253,
    f_254,
    f_255,
    f_256,
    f_257,
    f_258,
    f_259,
    f_260,
    f_261,
    f_262,
    f_263,
    f_264,
    f_265,
    f_266,
    f_267,
    f_268,
    f_269,
    f_270,
    f_271,
    f_272,
    f_273,
    f_274,
    f_275,
    f_276,
    f_277,
    f_278,
    f_279,
    f_280,
    f_281,
    f_282,
    f_283,
    f_284,
    f_285,
    f_286,
    f_287,
    f_288,
    f_289,
    f_290,
    f_291,
    f_292,
    f_293,
    f_294,
    f_295,
    f_296,
    f_297,
    f_298,
    f_299,
    f_300,
    f_301,
    f_302,
    f_303,
    f_304,
    f_305,
    f_306,
    f_307,
    f_308,
    f_309,
    f_310,
    f_311,
    f_312,
    f_313,
    f_314,
    f_315,
    f_316,
    f_317,
    f_318,
    f_319,
    f_320,
    f_321,
    f_322,
    f_323,
    f_324,
    f_325,
    f_326,
    f_327,
    f_328,
    f_329,
    f_330,
    f_331,
    f_332,
    f_333,
    f_334,
    f_335,
    f_336,
    f_337,
    f_338,
    f_339,
    f_340,
    f_341,
    f_342,
    f_343,
    f_344,
    f_345,
    f_346,
    f_347,
    f_348,
    f_349,
    f_350,
    f_351,
    f_352,
    f_353,
    f_354,
    f_355,
    f_356,
    f_357,
    f_358,
    f_359,
    f_360,
    f_361,
    f_362,
    f_363,
    f_364,
    f_365,
    f_366,
    f_367,
    f_368,
    f_369,
    f_370,
    f_371,
    f_372,
    f_373,
    f_374,
    f_375,
    f_376,
    f_377,
    f_378,
    f_379,
    f_380,
    f_381,
    f_382,
    f_383,
    f_384,
    f_385,
    f_386,
    f_387,
    f_388,
    f_389,
    f_390,
    f_391,
    f_392,
    f_393,
    f_394,
    f_395,
    f_396,
    f_397,
    f_398,
    f_399,
    f_400,
    f_401,
    f_402,
    f_403,
    f_404,
    f_405,
    f_406,
    f_407,
    f_408,
    f_409,
    f_410,
    f_411,
    f_412,
    f_413,
    f_414,
    f_415,
    f_416,
    f_417,
    f_418,
    f_419,
    f_420,
    f_421,
    f_422,
    f_423,
    f_424,
    f_425,
    f_426,
    f_427,
    f_428,
    f_429,
    f_430,
    f_431,
    f_432,
    f_433,
    f_434,
    f_435,
    f_436,
    f_437,
    f_438,
    f_439,
    f_440,
    f_441,
    f_442,
    f_443,
    f_444,
    f_445,
    f_446,
    f_447,
    f_448,
    f_449,
    f_450,
    f_451,
    f_452,
    f_453,
    f_454,
    f_455,
    f_456,
    f_457,
    f_458,
    f_459,
    f_460,
    f_461,
    f_462,
    f_463,
    f_464,
    f_465,
    f_466,
    f_467,
    f_468,
    f_469,
    f_470,
    f_471,
    f_472,
    f_473,
    f_474,
    f_475,
    f_476,
    f_477,
    f_478,
    f_479,
    f_480,
    f_481,
    f_482,
    f_483,
    f_484,
    f_485,
    f_486,
    f_487,
    f_488,
    f_489,
    f_490,
    f_491,
    f_492,
    f_493,
    f_494,
    f_495,
    f_496,
    f_497,
    f_498,
    f_499,
    f_500,
    f_501,
    f_502,
    f_503,
    f_504,
    f_505,
    f_506,
    f_507,
    f_508,
    f_509,
    f_510,
    f_511,
    f_512,
    f_513,
    f_514,
    f_515,
    f_516,
    f_517,
    f_518,
    f_519,
    f_520,
    f_521,
    f_522,
    f_523,
    f_524,
    f_525,
    f_526,
    f_527,
    f_528,
    f_529,
    f_530,
    f_531,
    f_532,
    f_533,
    f_534,
    f_535,
    f_536,
    f_537,
    f_538,
    f_539,
    f_540,
    f_541,
    f_542,
    f_543,
    f_544,
    f_545,
    f_546,
    f_547,
    f_548,
    f_549,
    f_550,
    f_551,
    f_552,
    f_553,
    f_554,
    f_555,
    f_556,
    f_557,
    f_558,
    f_559,
    f_560,
    f_561,
    f_562,
    f_563,
    f_564,
    f_565,
    f_566,
    f_567,
    f_568,
    f_569,
    f_570,
    f_571,
    f_572,
    f_573,
    f_574,
    f_575,
    f_576,
    f_577,
    f_578,
    f_579,
    f_580,
    f_581,
    f_582,
    f_583,
    f_584,
    f_585,
    f_586,
    f_587,
    f_588,
    f_589,
    f_590,
    f_591,
    f_592,
    f_593,
    f_594,
    f_595,
    f_596,
    f_597,
    f_598,
    f_599,
    f_600,
    f_601,
    f_602,
    f_603,
    f_604,
    f_605,
    f_606,
    f_607,
    f_608,
    f_609,
    f_610,
    f_611,
    f_612,
    f_613,
    f_614,
    f_615,
    f_616,
    f_617,
    f_618,
    f_619,
    f_620,
    f_621,
    f_622,
    f_623,
    f_624,
    f_625,
    f_626,
    f_627,
    f_628,
    f_629,
    f_630,
    f_631,
    f_632,
    f_633,
    f_634,
    f_635,
    f_636,
    f_637,
    f_638,
    f_639,
    f_640,
    f_641,
    f_642,
    f_643,
    f_644,
    f_645,
    f_646,
    f_647,
    f_648,
    f_649,
    f_650,
    f_651,
    f_652,
    f_653,
    f_654,
    f_655,
    f_656,
    f_657,
    f_658,
    f_659,
    f_660,
    f_661,
    f_662,
    f_663,
    f_664,
    f_665,
    f_666,
    f_667,
    f_668,
    f_669,
    f_670,
    f_671,
    f_672,
    f_673,
    f_674,
    f_675,
    f_676,
    f_677,
    f_678,
    f_679,
    f_680,
    f_681,
    f_682,
    f_683,
    f_684,
    f_685,
    f_686,
    f_687,
    f_688,
    f_689,
    f_690,
    f_691,
    f_692,
    f_693,
    f_694,
    f_695,
    f_696,
    f_697,
    f_698,
    f_699,
    f_700,
    f_701,
    f_702,
    f_703,
    f_704,
    f_705,
    f_706,
    f_707,
    f_708,
    f_709,
    f_710,
    f_711,
    f_712,
    f_713,
    f_714,
    f_715,
    f_716,
    f_717,
    f_718,
    f_719,
    f_720,
    f_721,
    f_722,
    f_723,
    f_724,
    f_725,
    f_726,
    f_727,
    f_728,
    f_729,
    f_730,
    f_731,
    f_732,
    f_733,
    f_734,
    f_735,
    f_736,
    f_737,
    f_738,
    f_739,
    f_740,
    f_741,
    f_742,
    f_743,
    f_744,
    f_745,
    f_746,
    f_747,
    f_748,
    f_749,
    f_750,
    f_751,
    f_752,
    f_753,
    f_754,
    f_755,
    f_756,
    f_757,
    f_758,
    f_759,
    f_760,
    f_761,
    f_762,
    f_763,
    f_764,
    f_765,
    f_766,
    f_767,
    f_768,
    f_769,
    f_770,
    f_771,
    f_772,
    f_773,
    f_774,
    f_775,
    f_776,
    f_777,
    f_778,
    f_779,
    f_780,
    f_781,
    f_782,
    f_783,
    f_784,
    f_785,
    f_786,
    f_787,
    f_788,
    f_789,
    f_790,
    f_791,
    f_792,
    f_793,
    f_794,
    f_795,
    f_796,
    f_797,
    f_798,
    f_799,
]

x = torch.arange(3.0)
direct = [f_000(x), f_001(x), f_399(x), f_400(x), f_799(x)]
acc = torch.zeros(3)
for fn in TABLE[::20]:
    acc = acc + fn(x)
print(len(TABLE), [d.tolist() for d in direct], acc.tolist())
