"""What each source statement in the claims ledger says, written in every edition's language.

``CLAIM_TEXT`` maps each claim id of ``model/claims.py`` (same ids, same order) to the
statement behind that number in zh, es, it and en. The ``zh`` entry is the source's own
words, copied verbatim from the ledger's ``source_text`` (article 000 for the first article,
whose es and it versions are 001 and 003; 002 and 004 exist only in Chinese). The es, it
and en entries render what the statement claims, with the numbers the source gives written
in each language's notation: decimal comma in es and it; thousands grouped as 2,000,000
(en), 2 000 000 with U+202F (es) and 2.000.000 (it); a U+202F before % in es; "−" for
minus; "×" for the source's "x"/"倍" factors. "…" marks text the quote leaves out.
"""

CLAIM_TEXT = {
    # --- Article 1 (000 zh; 001 es and 003 it say the same) -----------------------------
    "transfer": {
        "zh": "每次传输 2,000,000 / 10,000,000,000 秒，即 0.2 毫秒",
        "es": ("Cada transferencia tarda 2\u202f000\u202f000 / 10\u202f000\u202f000\u202f000 s, "
               "es decir, 0,2 ms"),
        "it": "Ogni trasferimento richiede 2.000.000 / 10.000.000.000 s, ossia 0,2 ms",
        "en": "Each transfer takes 2,000,000 / 10,000,000,000 s, i.e. 0.2 ms",
    },
    "comm": {
        "zh": "四次 H = 0.92 毫秒",
        "es": "Las cuatro comunicaciones suman H = 0,92 ms",
        "it": "Con quattro trasferimenti, H = 0,92 ms",
        "en": "Four transfers in all: H = 0.92 ms",
    },
    "parallel_compute": {
        "zh": "并行计算为 12/(2 × 0.8) = 7.5 毫秒",
        "es": "La parte de cálculo repartida dura 12/(2 × 0,8) = 7,5 ms",
        "it": "Il calcolo in parallelo richiede 12/(2 × 0,8) = 7,5 ms",
        "en": "The parallel computation takes 12/(2 × 0.8) = 7.5 ms",
    },
    "one_device": {
        "zh": "T₁ = 12.8",
        "es": "Con un dispositivo, T₁ = 12,8 ms",
        "it": "Con un solo dispositivo, T₁ = 12,8 ms",
        "en": "On one device, T₁ = 12.8 ms",
    },
    "two_devices": {
        "zh": "T₂ = 9.22 毫秒",
        "es": "Con dos dispositivos, T₂ = 9,22 ms",
        "it": "Con due dispositivi, T₂ = 9,22 ms",
        "en": "On two devices, T₂ = 9.22 ms",
    },
    "speedup": {
        "zh": "加速约 1.388 倍",
        "es": "Una aceleración de aproximadamente 1,388 veces",
        "it": "Un’accelerazione di circa 1,388 volte",
        "en": "A speedup of about 1.388×",
    },
    "saving_factor": {
        "zh": "η = 0.8 时括号为 0.375",
        "es": "Para η = 0,8, el factor entre paréntesis vale 0,375",
        "it": "Per η = 0,8 il fattore tra parentesi vale 0,375",
        "en": "At η = 0.8 the factor in brackets is 0.375",
    },
    "break_even_c": {
        "zh": "阈值为 0.92/0.375 = 2.45333 毫秒",
        "es": "El umbral de rentabilidad para C es 0,92/0,375 = 2,45333 ms",
        "it": "La soglia di pareggio per C è 0,92/0,375 = 2,45333 ms",
        "en": "The break-even threshold for C is 0.92/0.375 = 2.45333 ms",
    },
    "small_c_one": {
        "zh": "若 C = 1 毫秒……单设备为 1.8 毫秒",
        "es": "Si C = 1 ms … un solo dispositivo tarda 1,8 ms",
        "it": "Se C = 1 ms … un solo dispositivo impiega 1,8 ms",
        "en": "If C = 1 ms … one device takes 1.8 ms",
    },
    "small_c_two": {
        "zh": "双设备为 2.345",
        "es": "Con C = 1 ms, dos dispositivos tardan 2,345 ms",
        "it": "Con C = 1 ms, due dispositivi impiegano 2,345 ms",
        "en": "With C = 1 ms, two devices take 2.345 ms",
    },
    "slow_link_comm": {
        "zh": "有效带宽降至 1 GB/s 时，H = 8.12",
        "es": "Si el ancho de banda efectivo baja a 1 GB/s, H = 8,12 ms",
        "it": "Se la banda effettiva scende a 1 GB/s, H = 8,12 ms",
        "en": "With the effective bandwidth down to 1 GB/s, H = 8.12 ms",
    },
    "slow_link_two": {
        "zh": "T₂ = 16.42 毫秒",
        "es": "A 1 GB/s (con C = 12 ms), T₂ = 16,42 ms",
        "it": "A 1 GB/s (con C = 12 ms), T₂ = 16,42 ms",
        "en": "At 1 GB/s (with C = 12 ms), T₂ = 16.42 ms",
    },
    "fast_link_comm": {
        "zh": "50 GB/s 时 H = 0.28",
        "es": "A 50 GB/s, H = 0,28 ms",
        "it": "A 50 GB/s, H = 0,28 ms",
        "en": "At 50 GB/s, H = 0.28 ms",
    },
    "fast_link_two": {
        "zh": "T₂ = 8.58 毫秒",
        "es": "A 50 GB/s, T₂ = 8,58 ms",
        "it": "A 50 GB/s, T₂ = 8,58 ms",
        "en": "At 50 GB/s, T₂ = 8.58 ms",
    },
    "efficiency": {
        "zh": "双设备并行效率再除以二，基例约 0.694",
        "es": ("La eficiencia paralela con dos dispositivos es la aceleración dividida entre dos: "
               "unos 0,694 en el caso base"),
        "it": ("L’efficienza parallela su due dispositivi è l’accelerazione divisa per due: "
               "circa 0,694 nel caso base"),
        "en": "The two-device parallel efficiency is the speedup halved: about 0.694 in the base case",
    },
    "large_s_one": {
        "zh": "总时间为 112",
        "es": "Con S = 100 ms (C = 12 ms, 10 GB/s), un dispositivo tarda 112 ms en total",
        "it": "Con S = 100 ms (C = 12 ms, 10 GB/s), il tempo totale su un dispositivo è 112 ms",
        "en": "With S = 100 ms (C = 12 ms, 10 GB/s), one device takes 112 ms in total",
    },
    "large_s_two": {
        "zh": "与 108.42 毫秒",
        "es": "Con S = 100 ms, dos dispositivos tardan 108,42 ms en total",
        "it": "Con S = 100 ms, il tempo totale su due dispositivi è 108,42 ms",
        "en": "With S = 100 ms, two devices take 108.42 ms in total",
    },
    "large_s_speedup": {
        "zh": "仅约 1.033 倍加速",
        "es": "Con S = 100 ms, la aceleración es de solo unas 1,033 veces",
        "it": "Con S = 100 ms l’accelerazione è solo di circa 1,033 volte",
        "en": "With S = 100 ms, a speedup of only about 1.033×",
    },
    "overlap_bound": {
        "zh": "基例为 8.3 而非 9.22 毫秒",
        "es": "Con solapamiento perfecto, la cota optimista del caso base es 8,3 ms en lugar de 9,22 ms",
        "it": ("Con sovrapposizione completa, il limite inferiore ottimistico nel caso base è "
               "8,3 ms anziché 9,22 ms"),
        "en": "With perfect overlap, the optimistic lower bound in the base case is 8.3 ms, not 9.22 ms",
    },
    "d_seconds": {
        "zh": "D = 0.001095 秒",
        "es": ("Tiempo disponible por transferencia una vez pagado el arranque (caso base, "
               "C = 0,012 s): D = 0,001095 s"),
        "it": ("Tempo disponibile per ogni trasferimento, pagato l’avvio (caso base, C = 0,012 s): "
               "D = 0,001095 s"),
        "en": "Time left per transfer once start-up is paid (base case, C = 0.012 s): D = 0.001095 s",
    },
    "min_bandwidth": {
        "zh": "带宽需超过约 1.82648 GB/s",
        "es": "El ancho de banda efectivo tiene que superar unos 1,82648 GB/s",
        "it": "La banda effettiva deve superare circa 1,82648 GB/s",
        "en": "The effective bandwidth must exceed about 1.82648 GB/s",
    },
    "min_eta_12": {
        "zh": "C = 12、H = 0.92 毫秒时阈值约 0.54152",
        "es": "η tiene que superar unos 0,54152 cuando C = 12 ms y H = 0,92 ms",
        "it": "Per C = 12 ms e H = 0,92 ms, η deve superare circa 0,54152",
        "en": "With C = 12 ms and H = 0.92 ms, η must exceed about 0.54152",
    },
    "min_eta_1": {
        "zh": "C = 1 毫秒时变成 6.25",
        "es": "Con C = 1 ms, el umbral de η sube a 6,25",
        "it": "Con C = 1 ms, la soglia per η sale a 6,25",
        "en": "With C = 1 ms, the threshold on η becomes 6.25",
    },
    # --- Article 2 (002, Chinese only) ----------------------------------------------------
    "kitchen_t4_cook": {
        "zh": "t=4 时，炒菜只需 2.5 分钟",
        "es": "Con t = 4 cocineros, cocinar lleva solo 2,5 minutos",
        "it": "Con t = 4 cuochi, la cottura richiede solo 2,5 minuti",
        "en": "With t = 4 cooks, the cooking takes only 2.5 minutes",
    },
    "kitchen_t4_total": {
        "zh": "总耗时 2.62 分钟",
        "es": "Con t = 4, el tiempo total es de 2,62 minutos",
        "it": "Con t = 4, il tempo totale è di 2,62 minuti",
        "en": "At t = 4, the total time is 2.62 minutes",
    },
    "kitchen_t32_cook": {
        "zh": "t=32 时，炒菜 0.31 分钟",
        "es": "Con t = 32, cocinar lleva 0,31 minutos",
        "it": "Con t = 32, la cottura richiede 0,31 minuti",
        "en": "With t = 32, the cooking takes 0.31 minutes",
    },
    "efficiency_at_t_star": {
        "zh": "当 t = A/C 时……效率为 50%",
        "es": "Cuando t = A/C … la eficiencia es del 50\u202f%",
        "it": "Quando t = A/C … l’efficienza è del 50%",
        "en": "When t = A/C … the efficiency is 50%",
    },
    "efficiency_at_half_t_star": {
        "zh": "把 t 控制在 t*/2 以内，保证效率在 70% 以上",
        "es": "Mantener t por debajo de t*/2 garantiza una eficiencia superior al 70\u202f%",
        "it": "Tenere t entro t*/2 garantisce un’efficienza superiore al 70%",
        "en": "Keeping t within t*/2 guarantees an efficiency above 70%",
    },
    "nvlink_600": {
        "zh": "机内 NVLink 带宽可达 600 GB/s",
        "es": "Dentro del nodo, NVLink alcanza un ancho de banda de 600 GB/s",
        "it": "All’interno del nodo, la banda NVLink arriva a 600 GB/s",
        "en": "Within a node, NVLink bandwidth reaches 600 GB/s",
    },
    "all_gather_before_residual": {
        "zh": "在残差连接和 Dropout 之前用 All-Gather",
        "es": "Antes de la conexión residual y del dropout se usa un all-gather",
        "it": "Prima della connessione residua e del dropout serve un all-gather",
        "en": "An all-gather is used before the residual connection and dropout",
    },
    "anecdote_fits_without_pp": {
        "zh": "某团队训练 175B 参数模型，改为 TP=8（单节点）+ DP=64，不用流水线并行",
        "es": "Un equipo entrena un modelo de 175B parámetros con TP=8 (un nodo) + DP=64, sin paralelismo de canalización",
        "it": "Un team addestra un modello da 175B parametri con TP=8 (un nodo) + DP=64, senza parallelismo a pipeline",
        "en": "A team trains a 175B-parameter model with TP=8 (one node) + DP=64 and no pipeline parallelism",
    },
    "utilisation_tp32": {
        "zh": "误把 TP 拉到 32，μ 会跌到三成以下",
        "es": "Si se sube TP a 32 por error, μ cae por debajo del 30\u202f%",
        "it": "Portare per errore TP a 32 fa scendere μ sotto il 30%",
        "en": "Pushing TP to 32 by mistake drops μ below 30%",
    },
    "anecdote_before_after": {
        "zh": "模型 FLOPs 利用率只有 28%……利用率提升到 47%",
        "es": "La utilización de FLOPs del modelo era solo del 28\u202f% … y subió al 47\u202f%",
        "it": "L’utilizzo dei FLOP del modello era solo del 28% … ed è salito al 47%",
        "en": "Model FLOPs utilisation was only 28% … and rose to 47%",
    },
    "oversized_throughput_loss_tp16": {
        "zh": "实际吞吐可能比 TP=8 降低 40% 以上",
        "es": "Con TP=16, el throughput real puede caer un 40\u202f% o más respecto a TP=8",
        "it": "Con TP=16 il throughput effettivo può calare del 40% o più rispetto a TP=8",
        "en": "At TP=16, actual throughput can fall 40% or more below TP=8",
    },
    "oversized_throughput_loss_tp32": {
        "zh": "实际吞吐可能比 TP=8 降低 40% 以上",
        "es": "Con TP=32, el throughput real puede caer un 40\u202f% o más respecto a TP=8",
        "it": "Con TP=32 il throughput effettivo può calare del 40% o più rispetto a TP=8",
        "en": "At TP=32, actual throughput can fall 40% or more below TP=8",
    },
    "overlap_throughput_gain": {
        "zh": "训练吞吐提升 15%-30%",
        "es": "Solapar comunicación y cálculo aumentó el throughput de entrenamiento un 15-30\u202f%",
        "it": "Sovrapporre comunicazione e calcolo ha aumentato il throughput di addestramento del 15-30%",
        "en": "Overlapping communication with compute raised training throughput by 15-30%",
    },
    "anecdote_devices": {
        "zh": "512 卡上 TP=16……改为 TP=8（单节点）+ DP=64",
        "es": "En 512 GPU con TP=16 … se pasó a TP=8 (un solo nodo) + DP=64",
        "it": "Su 512 GPU con TP=16 … si è passati a TP=8 (un solo nodo) + DP=64",
        "en": "On 512 GPUs with TP=16 … switched to TP=8 (within one node) + DP=64",
    },
    "anecdote_time_saved": {
        "zh": "训练时间缩短约三分之一",
        "es": "El tiempo de entrenamiento se redujo aproximadamente en un tercio",
        "it": "Il tempo di addestramento si è ridotto di circa un terzo",
        "en": "Training time fell by about a third",
    },
    "links_nvlink_share": {
        "zh": "A 方案通信占比约 26%",
        "es": "Opción A (NVLink, 600 GB/s): la comunicación ocupa alrededor del 26\u202f% del tiempo",
        "it": "Soluzione A (NVLink, 600 GB/s): la comunicazione occupa circa il 26% del tempo",
        "en": "Option A (NVLink, 600 GB/s): communication takes about 26% of the time",
    },
    "links_pcie_share": {
        "zh": "B 方案约 45%",
        "es": "Opción B (PCIe, 300 GB/s): alrededor del 45\u202f%",
        "it": "Soluzione B (PCIe, 300 GB/s): circa il 45%",
        "en": "Option B (PCIe, 300 GB/s): about 45%",
    },
    "links_efficiency_ratio": {
        "zh": "训练效率领先 B 方案近一倍",
        "es": "La eficiencia de entrenamiento de A casi duplica la de B",
        "it": "L’efficienza di addestramento di A è quasi il doppio di quella di B",
        "en": "Option A’s training efficiency is nearly double option B's",
    },
    "pcie_300": {
        "zh": "B 方案单机 8 卡 PCIe 300GB/s",
        "es": "Opción B: 8 GPU por servidor sobre PCIe a 300 GB/s",
        "it": "Soluzione B: 8 GPU per server su PCIe a 300 GB/s",
        "en": "Option B: 8 GPUs per server on PCIe at 300 GB/s",
    },
    "demo_efficiency_t1": {
        "zh": "效率如何从 100% 跌到 41%（TP=1）",
        "es": "La demo muestra cómo la eficiencia cae del 100\u202f% con TP=1 al 41\u202f%",
        "it": "La demo mostra come l’efficienza scenda dal 100% con TP=1 al 41%",
        "en": "The demo shows efficiency falling from 100% at TP=1 to 41%",
    },
    "demo_efficiency_t32": {
        "zh": "效率如何从 100% 跌到 41%（TP=32）",
        "es": "La demo muestra cómo la eficiencia cae del 100\u202f% al 41\u202f% con TP=32",
        "it": "La demo mostra come l’efficienza scenda dal 100% al 41% con TP=32",
        "en": "The demo shows efficiency falling from 100% to 41% at TP=32",
    },
    "tp16_over_tp8": {
        "zh": "实测 TP=16 相比 TP=8 通常只快 10%-20%",
        "es": ("En las mediciones, TP=16 suele ser solo entre un 10\u202f% y un 20\u202f% "
               "más rápido que TP=8"),
        "it": "Nelle misure, TP=16 è di solito più veloce di TP=8 solo tra il 10% e il 20%",
        "en": "Measured, TP=16 is usually only 10% to 20% faster than TP=8",
    },
    "ring_half": {
        "zh": "每块 GPU 发送约总消息量的一半",
        "es": ("En un all-reduce en anillo, cada GPU envía aproximadamente la mitad "
               "del volumen total del mensaje"),
        "it": "In un all-reduce ad anello, ogni GPU invia circa metà del volume totale del messaggio",
        "en": "In a ring all-reduce, each GPU sends about half of the total message volume",
    },
    "ring_limit": {
        "zh": "t 很大时趋于总消息量",
        "es": "Para t grande, lo que envía cada GPU tiende al volumen total del mensaje",
        "it": "Per t grande, quanto invia ogni GPU tende al volume totale del messaggio",
        "en": "For large t, what each GPU sends tends to the whole message volume",
    },
    "quiz_q10_k": {
        "zh": "由 E(4)=0.8 得 1+4k=1.25，解得 k=0.0625",
        "es": "De E(4) = 0,8 se obtiene 1 + 4k = 1,25, de donde k = 0,0625",
        "it": "Da E(4) = 0,8 segue 1 + 4k = 1,25, quindi k = 0,0625",
        "en": "From E(4) = 0.8 it follows that 1 + 4k = 1.25, so k = 0.0625",
    },
    "quiz_q10": {
        "zh": "E = 1/(1+16×0.0625) = 1/2 = 50%",
        "es": "Para t = 16: E = 1/(1 + 16 × 0,0625) = 1/2 = 50\u202f%",
        "it": "Per t = 16: E = 1/(1 + 16 × 0,0625) = 1/2 = 50%",
        "en": "At t = 16: E = 1/(1 + 16 × 0.0625) = 1/2 = 50%",
    },
    # --- Article 3 (004, Chinese only) ----------------------------------------------------
    "naive_days": {
        "zh": "30/8 = 3.75 天",
        "es": "La cuenta ingenua con 8 GPU: 30/8 = 3,75 días",
        "it": "Il conto ingenuo con 8 GPU: 30/8 = 3,75 giorni",
        "en": "The naive sum with 8 GPUs: 30/8 = 3.75 days",
    },
    "single_a100_30_days": {
        "zh": "单卡 A100 训练 175B 参数模型 预计时间：30 天",
        "es": ("Entrenar un modelo de 175\u202f000 millones de parámetros en una sola A100: "
               "tiempo estimado, 30 días"),
        "it": "Addestrare un modello da 175 miliardi di parametri su una sola A100: tempo stimato 30 giorni",
        "en": "Training a 175B-parameter model on a single A100: estimated time 30 days",
    },
    "amdahl_example_n1": {
        "zh": "Speedup(1) = 1.00",
        "es": "Con un 10\u202f% serial: Speedup(1) = 1,00",
        "it": "Con il 10% seriale: Speedup(1) = 1,00",
        "en": "With 10% serial: Speedup(1) = 1.00",
    },
    "amdahl_example_n2": {
        "zh": "Speedup(2) = 1.82",
        "es": "Con un 10\u202f% serial: Speedup(2) = 1,82",
        "it": "Con il 10% seriale: Speedup(2) = 1,82",
        "en": "With 10% serial: Speedup(2) = 1.82",
    },
    "amdahl_example_n4": {
        "zh": "Speedup(4) = 3.08",
        "es": "Con un 10\u202f% serial: Speedup(4) = 3,08",
        "it": "Con il 10% seriale: Speedup(4) = 3,08",
        "en": "With 10% serial: Speedup(4) = 3.08",
    },
    "amdahl_example_n8": {
        "zh": "Speedup(8) = 4.71",
        "es": "Con un 10\u202f% serial: Speedup(8) = 4,71",
        "it": "Con il 10% seriale: Speedup(8) = 4,71",
        "en": "With 10% serial: Speedup(8) = 4.71",
    },
    "amdahl_example_n16": {
        "zh": "Speedup(16) = 6.40",
        "es": "Con un 10\u202f% serial: Speedup(16) = 6,40",
        "it": "Con il 10% seriale: Speedup(16) = 6,40",
        "en": "With 10% serial: Speedup(16) = 6.40",
    },
    "amdahl_example_limit": {
        "zh": "Speedup(∞) = 1 / 0.1 = 10",
        "es": "Con un 10\u202f% serial, el límite teórico: Speedup(∞) = 1 / 0,1 = 10",
        "it": "Con il 10% seriale, il limite teorico: Speedup(∞) = 1 / 0,1 = 10",
        "en": "With 10% serial, the theoretical limit: Speedup(∞) = 1 / 0.1 = 10",
    },
    "amdahl_table_s5_n2": {
        "zh": "S = 5% │ … 2核 … │ 1.90",
        "es": "S = 5\u202f%, N = 2 núcleos: aceleración 1,90",
        "it": "S = 5%, N = 2 core: accelerazione 1,90",
        "en": "S = 5%, N = 2 cores: speedup 1.90",
    },
    "amdahl_table_s5_n4": {
        "zh": "S = 5% │ … 4核 … │ 3.48",
        "es": "S = 5\u202f%, N = 4 núcleos: aceleración 3,48",
        "it": "S = 5%, N = 4 core: accelerazione 3,48",
        "en": "S = 5%, N = 4 cores: speedup 3.48",
    },
    "amdahl_table_s5_n8": {
        "zh": "S = 5% │ … 8核 … │ 5.93",
        "es": "S = 5\u202f%, N = 8 núcleos: aceleración 5,93",
        "it": "S = 5%, N = 8 core: accelerazione 5,93",
        "en": "S = 5%, N = 8 cores: speedup 5.93",
    },
    "amdahl_table_s5_n16": {
        "zh": "S = 5% │ … 16核 … │ 9.38",
        "es": "S = 5\u202f%, N = 16 núcleos: aceleración 9,38",
        "it": "S = 5%, N = 16 core: accelerazione 9,38",
        "en": "S = 5%, N = 16 cores: speedup 9.38",
    },
    "amdahl_table_s10_n2": {
        "zh": "S = 10% │ … 2核 … │ 1.82",
        "es": "S = 10\u202f%, N = 2 núcleos: aceleración 1,82",
        "it": "S = 10%, N = 2 core: accelerazione 1,82",
        "en": "S = 10%, N = 2 cores: speedup 1.82",
    },
    "amdahl_table_s10_n4": {
        "zh": "S = 10% │ … 4核 … │ 3.08",
        "es": "S = 10\u202f%, N = 4 núcleos: aceleración 3,08",
        "it": "S = 10%, N = 4 core: accelerazione 3,08",
        "en": "S = 10%, N = 4 cores: speedup 3.08",
    },
    "amdahl_table_s10_n8": {
        "zh": "S = 10% │ … 8核 … │ 4.71",
        "es": "S = 10\u202f%, N = 8 núcleos: aceleración 4,71",
        "it": "S = 10%, N = 8 core: accelerazione 4,71",
        "en": "S = 10%, N = 8 cores: speedup 4.71",
    },
    "amdahl_table_s10_n16": {
        "zh": "S = 10% │ … 16核 … │ 6.40",
        "es": "S = 10\u202f%, N = 16 núcleos: aceleración 6,40",
        "it": "S = 10%, N = 16 core: accelerazione 6,40",
        "en": "S = 10%, N = 16 cores: speedup 6.40",
    },
    "amdahl_table_s20_n2": {
        "zh": "S = 20% │ … 2核 … │ 1.67",
        "es": "S = 20\u202f%, N = 2 núcleos: aceleración 1,67",
        "it": "S = 20%, N = 2 core: accelerazione 1,67",
        "en": "S = 20%, N = 2 cores: speedup 1.67",
    },
    "amdahl_table_s20_n4": {
        "zh": "S = 20% │ … 4核 … │ 2.67",
        "es": "S = 20\u202f%, N = 4 núcleos: aceleración 2,67",
        "it": "S = 20%, N = 4 core: accelerazione 2,67",
        "en": "S = 20%, N = 4 cores: speedup 2.67",
    },
    "amdahl_table_s20_n8": {
        "zh": "S = 20% │ … 8核 … │ 3.48",
        "es": "S = 20\u202f%, N = 8 núcleos: aceleración 3,48",
        "it": "S = 20%, N = 8 core: accelerazione 3,48",
        "en": "S = 20%, N = 8 cores: speedup 3.48",
    },
    "amdahl_table_s20_n16": {
        "zh": "S = 20% │ … 16核 … │ 4.44",
        "es": "S = 20\u202f%, N = 16 núcleos: aceleración 4,44",
        "it": "S = 20%, N = 16 core: accelerazione 4,44",
        "en": "S = 20%, N = 16 cores: speedup 4.44",
    },
    "amdahl_table_s50_n2": {
        "zh": "S = 50% │ … 2核 … │ 1.33",
        "es": "S = 50\u202f%, N = 2 núcleos: aceleración 1,33",
        "it": "S = 50%, N = 2 core: accelerazione 1,33",
        "en": "S = 50%, N = 2 cores: speedup 1.33",
    },
    "amdahl_table_s50_n4": {
        "zh": "S = 50% │ … 4核 … │ 1.60",
        "es": "S = 50\u202f%, N = 4 núcleos: aceleración 1,60",
        "it": "S = 50%, N = 4 core: accelerazione 1,60",
        "en": "S = 50%, N = 4 cores: speedup 1.60",
    },
    "amdahl_table_s50_n8": {
        "zh": "S = 50% │ … 8核 … │ 1.78",
        "es": "S = 50\u202f%, N = 8 núcleos: aceleración 1,78",
        "it": "S = 50%, N = 8 core: accelerazione 1,78",
        "en": "S = 50%, N = 8 cores: speedup 1.78",
    },
    "amdahl_table_s50_n16": {
        "zh": "S = 50% │ … 16核 … │ 1.94",
        "es": "S = 50\u202f%, N = 16 núcleos: aceleración 1,94",
        "it": "S = 50%, N = 16 core: accelerazione 1,94",
        "en": "S = 50%, N = 16 cores: speedup 1.94",
    },
    "amdahl_table_s90_n2": {
        "zh": "S = 90% │ … 2核 … │ 1.11",
        "es": "S = 90\u202f%, N = 2 núcleos: aceleración 1,11",
        "it": "S = 90%, N = 2 core: accelerazione 1,11",
        "en": "S = 90%, N = 2 cores: speedup 1.11",
    },
    "amdahl_table_s90_n4": {
        "zh": "S = 90% │ … 4核 … │ 1.19",
        "es": "S = 90\u202f%, N = 4 núcleos: aceleración 1,19",
        "it": "S = 90%, N = 4 core: accelerazione 1,19",
        "en": "S = 90%, N = 4 cores: speedup 1.19",
    },
    "amdahl_table_s90_n8": {
        "zh": "S = 90% │ … 8核 … │ 1.25",
        "es": "S = 90\u202f%, N = 8 núcleos: aceleración 1,25",
        "it": "S = 90%, N = 8 core: accelerazione 1,25",
        "en": "S = 90%, N = 8 cores: speedup 1.25",
    },
    "amdahl_table_s90_n16": {
        "zh": "S = 90% │ … 16核 … │ 1.31",
        "es": "S = 90\u202f%, N = 16 núcleos: aceleración 1,31",
        "it": "S = 90%, N = 16 core: accelerazione 1,31",
        "en": "S = 90%, N = 16 cores: speedup 1.31",
    },
    "amdahl_limit_s5": {
        "zh": "S = 5% … 理论极限 20.0x",
        "es": "S = 5\u202f%: límite teórico 20×",
        "it": "S = 5%: limite teorico 20×",
        "en": "S = 5%: theoretical limit 20×",
    },
    "amdahl_limit_s10": {
        "zh": "S = 10% … 理论极限 10.0x",
        "es": "S = 10\u202f%: límite teórico 10×",
        "it": "S = 10%: limite teorico 10×",
        "en": "S = 10%: theoretical limit 10×",
    },
    "amdahl_limit_s20": {
        "zh": "S = 20% … 理论极限 5.0x",
        "es": "S = 20\u202f%: límite teórico 5×",
        "it": "S = 20%: limite teorico 5×",
        "en": "S = 20%: theoretical limit 5×",
    },
    "amdahl_limit_s50": {
        "zh": "S = 50% … 理论极限 2.0x",
        "es": "S = 50\u202f%: límite teórico 2×",
        "it": "S = 50%: limite teorico 2×",
        "en": "S = 50%: theoretical limit 2×",
    },
    "amdahl_limit_s90": {
        "zh": "S = 90% … 理论极限 1.1x",
        "es": "S = 90\u202f%: límite teórico 1,1×",
        "it": "S = 90%: limite teorico 1,1×",
        "en": "S = 90%: theoretical limit 1.1×",
    },
    "breakdown_serial": {
        "zh": "实际串行比例 S ≈ 20%（考虑通信开销）",
        "es": "Fracción serial efectiva S ≈ 20\u202f% (contando la sobrecarga de comunicación)",
        "it": "Frazione seriale effettiva S ≈ 20% (contando il costo della comunicazione)",
        "en": "Effective serial fraction S ≈ 20% (counting communication overhead)",
    },
    "training_speedup": {
        "zh": "Speedup(8) = … = 3.33x",
        "es": "Con S = 0,2: Speedup(8) = … = 3,33×",
        "it": "Con S = 0,2: Speedup(8) = … = 3,33×",
        "en": "With S = 0.2: Speedup(8) = … = 3.33×",
    },
    "training_days": {
        "zh": "30 天 / 3.33 = 9 天",
        "es": "30 días / 3,33 = 9 días",
        "it": "30 giorni / 3,33 = 9 giorni",
        "en": "30 days / 3.33 = 9 days",
    },
    "gustafson_example": {
        "zh": "8 卡加速比 = 8 + 0.1 × (1 - 8) = 7.3x",
        "es": "Aceleración escalada (Gustafson) con 8 GPU = 8 + 0,1 × (1 − 8) = 7,3×",
        "it": "Accelerazione scalata (Gustafson) con 8 GPU = 8 + 0,1 × (1 − 8) = 7,3×",
        "en": "Scaled speedup (Gustafson) on 8 GPUs = 8 + 0.1 × (1 − 8) = 7.3×",
    },
    "warp_32": {
        "zh": "一个 Warp = 32 个线程",
        "es": "Un warp = 32 hilos",
        "it": "Un warp = 32 thread",
        "en": "One warp = 32 threads",
    },
    "efficiency_speedup": {
        "zh": "8 卡加速比 ≈ 8 × 0.75 = 6x",
        "es": "Aceleración con 8 GPU ≈ 8 × 0,75 = 6×",
        "it": "Accelerazione con 8 GPU ≈ 8 × 0,75 = 6×",
        "en": "Speedup on 8 GPUs ≈ 8 × 0.75 = 6×",
    },
    "efficiency_days": {
        "zh": "30 天 / 6 = 5 天",
        "es": "30 días / 6 = 5 días",
        "it": "30 giorni / 6 = 5 giorni",
        "en": "30 days / 6 = 5 days",
    },
    "efficiency_budget_low": {
        "zh": "实际并行效率 ≈ 70-80%（下限）",
        "es": "Eficiencia paralela real ≈ 70–80\u202f% (extremo inferior)",
        "it": "Efficienza parallela reale ≈ 70–80% (estremo inferiore)",
        "en": "Actual parallel efficiency ≈ 70–80% (lower end)",
    },
    "efficiency_budget_high": {
        "zh": "实际并行效率 ≈ 70-80%（上限）",
        "es": "Eficiencia paralela real ≈ 70–80\u202f% (extremo superior)",
        "it": "Efficienza parallela reale ≈ 70–80% (estremo superiore)",
        "en": "Actual parallel efficiency ≈ 70–80% (upper end)",
    },
    "gradients_700gb": {
        "zh": "175B 参数 = 700 GB",
        "es": "Gradientes de 175\u202f000 millones de parámetros (FP32, 4 bytes cada uno) = 700 GB",
        "it": "Gradienti di 175 miliardi di parametri (FP32, 4 byte ciascuno) = 700 GB",
        "en": "Gradients for 175B parameters (FP32, 4 bytes each) = 700 GB",
    },
    "a100_holds_70b": {
        "zh": "8×A100（80GB）单卡能装 70B 参数（FP16）",
        "es": ("En 8×A100 (80 GB), cada tarjeta puede alojar 70\u202f000 millones de "
               "parámetros (FP16)"),
        "it": "Con 8×A100 (80 GB), una sola scheda può contenere 70 miliardi di parametri (FP16)",
        "en": "With 8×A100 (80 GB), a single card can hold 70B parameters (FP16)",
    },
    "ten_x_product": {
        "zh": "20 × 2 × 6 × 1.5 × 1.5 × 1.2 ≈ 648x",
        "es": "Efecto combinado de los seis factores: 20 × 2 × 6 × 1,5 × 1,5 × 1,2 ≈ 648×",
        "it": "Effetto combinato dei sei fattori: 20 × 2 × 6 × 1,5 × 1,5 × 1,2 ≈ 648×",
        "en": "Combined effect of the six factors: 20 × 2 × 6 × 1.5 × 1.5 × 1.2 ≈ 648×",
    },
    "ten_x_achieved": {
        "zh": "单卡 30 天 → 多卡 3 天（~10x）",
        "es": "Una GPU, 30 días → varias GPU, 3 días (~10×)",
        "it": "Una GPU, 30 giorni → più GPU, 3 giorni (~10×)",
        "en": "30 days on one GPU → 3 days on several (~10×)",
    },
    "slower_once_comm_exceeds_compute": {
        "zh": "当传菜时间超过炒菜时间，加人反而更慢",
        "es": "Cuando pasar los platos lleva más que cocinarlos, añadir cocineros hace el servicio más lento",
        "it": "Quando passare i piatti richiede più che cucinarli, aggiungere cuochi rende il servizio più lento",
        "en": "Once handing dishes over takes longer than cooking them, adding cooks makes the job slower",
    },
    "total_volume_unchanged": {
        "zh": "要传的总料汁量是不变的",
        "es": "El volumen total que hay que transmitir no cambia con el número de dispositivos",
        "it": "Il volume totale da trasmettere non cambia con il numero di dispositivi",
        "en": "The total volume to be transferred does not change with the number of devices",
    },
    "kitchen_comm_becomes_main": {
        "zh": "传菜从「小插曲」变成了「主角」",
        "es": "Con 32 cocineros, pasar los platos deja de ser un episodio menor y se vuelve lo principal",
        "it": "Con 32 cuochi, passare i piatti smette di essere un episodio minore e diventa la parte principale",
        "en": "With 32 cooks, handing dishes over stops being a side issue and becomes the main part",
    },
    "adding_cooks_makes_it_slower": {
        "zh": "当 t 超过某个值，加人不仅不提速",
        "es": "A partir de cierto t, añadir cocineros ya no acelera nada",
        "it": "Oltre un certo t, aggiungere cuochi non accelera più nulla",
        "en": "Past a certain t, adding cooks no longer speeds anything up",
    },
    "negative_returns_past_t_star": {
        "zh": "此后加人就是负收益",
        "es": "Pasado el grado crítico t*, añadir dispositivos da un rendimiento negativo",
        "it": "Oltre il grado critico t*, aggiungere dispositivi dà un rendimento negativo",
        "en": "Past the critical degree t*, adding devices gives negative returns",
    },
    "max_over_n_formula": {
        "zh": "并行时间 T(N) = max(t1, t2, t3, t4) / N",
        "es": "El tiempo en paralelo es T(N) = max(t1, t2, t3, t4) / N",
        "it": "Il tempo in parallelo è T(N) = max(t1, t2, t3, t4) / N",
        "en": "The parallel time is T(N) = max(t1, t2, t3, t4) / N",
    },
    "single_device_communication": {
        "zh": "Communication（梯度同步） ≈ 10%",
        "es": "En una sola tarjeta, la comunicación (sincronizar gradientes) ocupa ≈ 10\u202f% del tiempo",
        "it": "Su una sola scheda, la comunicazione (sincronizzare i gradienti) occupa ≈ 10% del tempo",
        "en": "On a single card, communication (gradient synchronisation) takes ≈ 10% of the time",
    },
    "smaller_s_explains_five_days": {
        "zh": "因为通信优化做得好（NVLink），实际 S 更小",
        "es": "El colega tardó 5 días porque, con NVLink, su S real era menor",
        "it": "Il collega ha impiegato 5 giorni perché, grazie a NVLink, il suo S reale era più piccolo",
        "en": "The colleague took 5 days because good communication (NVLink) made the real S smaller",
    },
    "allreduce_cuts_gradient_traffic": {
        "zh": "实际上通过 AllReduce 优化为 8 份 × 1 份传输",
        "es": "El all-reduce reduce el tráfico de gradientes a 8 × 1 partes",
        "it": "L'all-reduce riduce il traffico dei gradienti a 8 × 1 parti",
        "en": "All-reduce cuts the gradient traffic down to 8 × 1 shares",
    },
    "demo_bandwidth_per_direction": {
        "zh": "演示代码取 bw = 600e9（机内 NVLink 带宽约 600 GB/s）",
        "es": "La demo usa bw = 600e9: NVLink dentro del nodo, unos 600 GB/s",
        "it": "La demo usa bw = 600e9: NVLink dentro il nodo, circa 600 GB/s",
        "en": "The demo sets bw = 600e9: intra-node NVLink, about 600 GB/s",
    },
    "gustafson_explains_five_days": {
        "zh": "实际为什么可能比理论快？（Gustafson 定律）",
        "es": "La ley de Gustafson explica por qué la práctica puede superar a la teoría",
        "it": "La legge di Gustafson spiega perché la pratica può battere la teoria",
        "en": "Gustafson's law explains why practice can beat the theory",
    },
    "gpu_factor_in_this_run": {
        "zh": "因素 1：GPU 架构（相对 CPU）带来约 20 倍加速",
        "es": "Factor 1: la arquitectura GPU (frente a la CPU) acelera unas 20 veces",
        "it": "Fattore 1: l'architettura GPU (rispetto alla CPU) accelera di circa 20 volte",
        "en": "Factor 1: the GPU architecture (versus a CPU) speeds up about 20 times",
    },
    "checkpointing_speeds_up": {
        "zh": "因素 5：激活检查点带来约 1.5 倍加速",
        "es": "Factor 5: el checkpointing de activaciones acelera unas 1,5 veces",
        "it": "Fattore 5: il checkpointing delle attivazioni accelera di circa 1,5 volte",
        "en": "Factor 5: activation checkpointing speeds up about 1.5 times",
    },
}

#: Why a claim fails, in every edition's language: one line shown under the claim in the
#: ledger. Every qualitative claim (a sentence decided by a quantity, ``relation`` in
#: model/claims.py) has one; numeric errata are explained on the errata page.
CLAIM_REASON = {
    "all_gather_before_residual": {
        "zh": "在 Megatron-LM 中，Dropout 和残差相加之前的集合通信是全归约；采用序列并行时则是 Reduce-Scatter（Korthikanti 等，2022）。全收集出现在 LayerNorm 之后、下一次按列切分的矩阵乘法之前。",
        "es": "En Megatron-LM, la colectiva previa al dropout y a la suma residual es un all-reduce, o un reduce-scatter con paralelismo de secuencia (Korthikanti et al., 2022); el all-gather va después de LayerNorm, antes de la siguiente multiplicación repartida por columnas.",
        "it": "In Megatron-LM la collettiva che precede il dropout e la somma residua è un all-reduce, o un reduce-scatter con il parallelismo di sequenza (Korthikanti et al., 2022); l'all-gather viene dopo LayerNorm, prima della successiva moltiplicazione divisa per colonne.",
        "en": "In Megatron-LM the collective before dropout and the residual addition is an all-reduce, or a reduce-scatter with sequence parallelism (Korthikanti et al., 2022); the all-gather comes after LayerNorm, before the next column-split matrix multiplication.",
    },
    "anecdote_fits_without_pp": {
        "zh": "混合精度 Adam 每个参数要占 16 字节（Rajbhandari 等，2020）：每卡 175B/8 个参数的模型状态需要 350 GB，而 A100 只有 80 GB；不用流水线并行时，只有把梯度和优化器状态也分摊到 64 个数据并行副本上（ZeRO-2，约 49 GB）才放得下。",
        "es": "Adam en precisión mixta guarda 16 bytes por parámetro (Rajbhandari et al., 2020): los 175B/8 parámetros de cada dispositivo necesitan 350 GB de estados del modelo frente a los 80 GB de una A100; sin canalización solo caben si los gradientes y los estados del optimizador se reparten también entre las 64 réplicas de datos (ZeRO-2: unos 49 GB).",
        "it": "Adam in precisione mista tiene 16 byte per parametro (Rajbhandari et al., 2020): i 175B/8 parametri di ogni dispositivo richiedono 350 GB di stati del modello contro gli 80 GB di una A100; senza pipeline ci stanno solo se anche gradienti e stati dell'ottimizzatore sono ripartiti fra le 64 repliche dei dati (ZeRO-2: circa 49 GB).",
        "en": "Mixed-precision Adam keeps 16 bytes per parameter (Rajbhandari et al., 2020): the 175B/8 parameters of each device need 350 GB of model states against an A100's 80 GB; with no pipeline they fit only if gradients and optimizer states are also sharded over the 64 data-parallel replicas (ZeRO-2: about 49 GB).",
    },
    "utilisation_tp32": {
        "zh": "按原文演示参数，μ(32) = 1/(1 + R) 仍高于三成；只有按环形通信量或单向带宽计算，才会跌破三成。",
        "es": "Con los parámetros de la demo, μ(32) = 1/(1 + R) queda por encima del 30\u202f%; solo baja de ahí con el tráfico de un anillo o con el ancho de banda por sentido.",
        "it": "Con i parametri della demo, μ(32) = 1/(1 + R) resta sopra il 30%; scende sotto solo con il traffico di un anello o con la banda per direzione.",
        "en": "With the demo's parameters μ(32) = 1/(1 + R) stays above 30%; it falls below only with ring traffic or a per-direction bandwidth.",
    },
    "oversized_throughput_loss_tp16": {
        "zh": "按原文演示参数，TP=16 相对 TP=8 的每卡吞吐降幅远不到 40%；到 TP=32 才超过 40%。",
        "es": "Con los parámetros de la demo, TP=16 pierde bastante menos del 40\u202f% del throughput por dispositivo de TP=8; solo TP=32 pasa del 40\u202f%.",
        "it": "Con i parametri della demo, TP=16 perde molto meno del 40% del throughput per dispositivo di TP=8; solo TP=32 supera il 40%.",
        "en": "With the demo's parameters, TP=16 loses far less than 40% of TP=8's throughput per device; only TP=32 loses more than 40%.",
    },
    "tp16_over_tp8": {
        "zh": "在单节点内，原文自己的模型给出的 TP=16 相对 TP=8 的提速远超 10%-20%。",
        "es": "Dentro de un nodo, el propio modelo del artículo hace TP=16 mucho más de un 10-20\u202f% más rápido que TP=8.",
        "it": "All'interno di un nodo, il modello dell'articolo rende TP=16 più veloce di TP=8 ben oltre il 10-20%.",
        "en": "Within one node, the article's own model makes TP=16 far more than 10-20% faster than TP=8.",
    },
    "slower_once_comm_exceeds_compute": {
        "zh": "t = 32 时通信已超过计算，但 T(32) 仍小于 T(16)：T(t) = A/t + C 一直在下降，下降的只是效率。",
        "es": "Con t = 32 la comunicación ya supera al cálculo y, aun así, T(32) es menor que T(16): T(t) = A/t + C sigue bajando; lo que baja es la eficiencia.",
        "it": "Con t = 32 la comunicazione supera già il calcolo, eppure T(32) è minore di T(16): T(t) = A/t + C continua a scendere; a calare è l'efficienza.",
        "en": "At t = 32 communication already exceeds compute, yet T(32) is below T(16): T(t) = A/t + C keeps falling; what falls is the efficiency.",
    },
    "total_volume_unchanged": {
        "zh": "每条消息大小不变，但 t 台设备的环形 all-reduce 一共要传 2(t − 1) 条消息，总量随 t 增长。",
        "es": "Cada mensaje mide lo mismo, pero un all-reduce en anillo entre t dispositivos mueve 2(t − 1) mensajes en total: el volumen crece con t.",
        "it": "Ogni messaggio ha la stessa dimensione, ma un all-reduce ad anello fra t dispositivi muove in tutto 2(t − 1) messaggi: il volume cresce con t.",
        "en": "Each message keeps its size, but a ring all-reduce over t devices moves 2(t − 1) messages in all: the volume grows with t.",
    },
    "kitchen_comm_becomes_main": {
        "zh": "32 位厨师时，传菜仍远不到总时间的一半；这个厨房自己的 t* = A/C 远大于 32。",
        "es": "Con 32 cocineros, pasar los platos sigue lejos de la mitad del tiempo; el t* = A/C de esta cocina queda muy por encima de 32.",
        "it": "Con 32 cuochi, passare i piatti resta ben sotto la metà del tempo; il t* = A/C di questa cucina è molto più alto di 32.",
        "en": "With 32 cooks, handing dishes over is still well under half the time; this kitchen's own t* = A/C lies far above 32.",
    },
    "adding_cooks_makes_it_slower": {
        "zh": "T(t) = A/t + C 一直在下降：t 越过 t* 后再翻倍，时间还能缩短四分之一；下降的是效率。",
        "es": "T(t) = A/t + C sigue bajando: duplicar t más allá de t* recorta el tiempo en una cuarta parte; lo que baja es la eficiencia.",
        "it": "T(t) = A/t + C continua a scendere: raddoppiare t oltre t* taglia il tempo di un quarto; a calare è l'efficienza.",
        "en": "T(t) = A/t + C keeps falling: doubling t past t* cuts the time by a quarter; what falls is the efficiency.",
    },
    "negative_returns_past_t_star": {
        "zh": "越过 t* 后，每多一台设备仍会缩短每层时间；每台设备的收益在缩小，但始终为正。",
        "es": "Pasado t*, cada dispositivo más sigue acortando el tiempo por capa; el rendimiento por dispositivo se reduce, pero nunca es negativo.",
        "it": "Oltre t*, ogni dispositivo in più accorcia ancora il tempo per strato; il rendimento per dispositivo cala, ma resta positivo.",
        "en": "Past t*, each extra device still shortens the time per layer; the return per device shrinks but stays positive.",
    },
    "max_over_n_formula": {
        "zh": "四个等长任务分给四台设备，用时是单个任务的时间 max(tᵢ)；公式 max(tᵢ)/N 又多除了一次 N。",
        "es": "Cuatro tareas iguales en cuatro dispositivos tardan lo que una, max(tᵢ); la fórmula max(tᵢ)/N divide por N una segunda vez.",
        "it": "Quattro compiti uguali su quattro dispositivi richiedono il tempo di uno, max(tᵢ); la formula max(tᵢ)/N divide per N una seconda volta.",
        "en": "Four equal tasks on four devices take one task's time, max(tᵢ); the formula max(tᵢ)/N divides by N a second time.",
    },
    "single_device_communication": {
        "zh": "单卡训练没有需要同步的梯度，通信占比为 0；通信开销只在多卡时出现。",
        "es": "Una sola tarjeta no tiene gradientes que sincronizar: su comunicación es 0; el coste aparece solo con varias.",
        "it": "Una sola scheda non ha gradienti da sincronizzare: la sua comunicazione è 0; il costo compare solo con più schede.",
        "en": "A single card has no gradients to synchronise: its communication share is 0; the cost appears only with several.",
    },
    "smaller_s_explains_five_days": {
        "zh": "即使完全没有通信，按原文的时间分解在 8 卡上也超过 5 天。",
        "es": "Incluso sin ninguna comunicación, el desglose del artículo da más de 5 días con 8 tarjetas.",
        "it": "Anche senza alcuna comunicazione, la ripartizione dell'articolo dà più di 5 giorni su 8 schede.",
        "en": "Even with no communication at all, the article's breakdown gives more than 5 days on 8 cards.",
    },
    "allreduce_cuts_gradient_traffic": {
        "zh": "环形 all-reduce 让每台设备收发 2(N − 1)/N 倍的梯度：N = 8 时比 700 GB 的一份梯度还多，而不是更少。",
        "es": "Un all-reduce en anillo hace que cada dispositivo mueva 2(N − 1)/N veces los gradientes: con N = 8, más que los 700 GB de una parte, no menos.",
        "it": "Un all-reduce ad anello fa muovere a ogni dispositivo 2(N − 1)/N volte i gradienti: con N = 8, più dei 700 GB di una parte, non meno.",
        "en": "A ring all-reduce makes each device move 2(N − 1)/N times the gradients: at N = 8, more than the 700 GB of one share, not less.",
    },
    "demo_bandwidth_per_direction": {
        "zh": "演示把每条消息除以 B，当作单向速率；A100 的 600 GB/s NVLink 是两个方向之和（12 条链路，每个方向各 25 GB/s），单向只有 300 GB/s：C 翻倍，t* 减半。",
        "es": "La demo divide cada mensaje entre B como si fuera un ritmo en un solo sentido; los 600 GB/s de NVLink de una A100 suman los dos sentidos (12 enlaces de 25 GB/s en cada uno): en un sentido son 300 GB/s, así que C se duplica y t* se reduce a la mitad.",
        "it": "La demo divide ogni messaggio per B come se fosse una velocità in un solo verso; i 600 GB/s di NVLink di una A100 sommano i due versi (12 collegamenti da 25 GB/s ciascuno per verso): in un verso sono 300 GB/s, quindi C raddoppia e t* si dimezza.",
        "en": "The demo divides each message by B as a one-way rate; an A100's 600 GB/s of NVLink counts both directions (12 links of 25 GB/s each way): one direction carries 300 GB/s, so C doubles and t* halves.",
    },
    "gustafson_explains_five_days": {
        "zh": "原文自己说数据集和模型都固定，作业没有变大：取 Gustafson 的 S = 0.1，按阿姆达尔定律 8 卡仍要约 6.4 天，不是 5 天；Gustafson 的加速比衡量的是作业变大后多做的工作。",
        "es": "El propio artículo fija el conjunto de datos y el modelo, así que el trabajo no crece: con la S = 0,1 de Gustafson, la ley de Amdahl da unos 6,4 días con 8 tarjetas, no 5; la aceleración de Gustafson mide el trabajo extra de un problema que crece.",
        "it": "L'articolo stesso fissa dataset e modello, quindi il lavoro non cresce: con la S = 0,1 di Gustafson, la legge di Amdahl dà circa 6,4 giorni su 8 schede, non 5; lo speedup di Gustafson misura il lavoro in più di un problema che cresce.",
        "en": "The article itself fixes the dataset and the model, so the job does not grow: with Gustafson's S = 0.1, Amdahl's law gives about 6.4 days on 8 cards, not 5; Gustafson's speedup counts the extra work of a job that grows.",
    },
    "gpu_factor_in_this_run": {
        "zh": "这 30 天本来就是在一块 A100 上跑的：GPU 相对 GPU 没有任何提升（× 1）。",
        "es": "Los 30 días ya corren en una A100: una GPU frente a una GPU no gana nada (× 1).",
        "it": "I 30 giorni girano già su una A100: una GPU rispetto a una GPU non guadagna nulla (× 1).",
        "en": "The 30 days already run on one A100: a GPU over a GPU gains nothing (× 1).",
    },
    "checkpointing_speeds_up": {
        "zh": "重算前向传播（原文分解中占 40%）让每一步变为 1.4 倍长，速度约为原来的 0.71；它省的是显存，不是时间。",
        "es": "Recalcular la pasada hacia delante (el 40\u202f% del desglose) alarga cada paso 1,4 veces: unos 0,71 de la velocidad; ahorra memoria, no tiempo.",
        "it": "Ricalcolare il passaggio in avanti (il 40% della ripartizione) allunga ogni passo di 1,4 volte: circa 0,71 della velocità; risparmia memoria, non tempo.",
        "en": "Recomputing the forward pass (40% of the breakdown) makes each step 1.4 times as long: about 0.71 of the speed; it saves memory, not time.",
    },
}
