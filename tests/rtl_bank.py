"""A bank in four languages, one of them right to left (Arabic), for the tests of N languages.

English, French and Dutch are the bundled bank's first questions; the Arabic bank translates
the topic and the first two questions (the second's feedback and the third question stay in
English, as an unfinished translation falls back to the source) and a few interface strings.
"""

from __future__ import annotations

from dataclasses import replace

from aistack_bank.model import Bank
from aistack_bank.options import ExportOptions

from sitebrowser import load_banks, load_options

COUNT = 3
"""Questions per language: enough for a practice run, few enough to stay fast."""

AR_TOPIC = {
    "category": "أنظمة الحاسوب",
    "title": "مكدس العتاد والبرمجيات للذكاء الاصطناعي",
    "summary": "تعرّف على عتاد الذكاء الاصطناعي وبرمجياته من خلال أسئلة اختيار من متعدد: الاستدلال مقابل التدريب، والتكميم، والكثافة الحسابية ونموذج roofline، والمصفوفات الانقباضية، ودمج العمليات والتقسيم إلى بلاطات.",
}

AR_QUESTIONS = {
    "q001": {
        "stem": "ما الفرق بين التدريب والاستدلال في الشبكة العصبية؟",
        "options": [
            ("يحدّث التدريب الأوزان بتمريرات أمامية وخلفية على البيانات؛ أما الاستدلال فيُجري تمريرات أمامية فقط بأوزان ثابتة.",
             "صحيح: يتعلّم التدريب الأوزان بالانتشار العكسي للخسارة ثم تحديثها، بينما يقتصر الاستدلال على تقييم الشبكة المدرَّبة على مدخلات جديدة."),
            ("يُجري التدريب تمريرات أمامية فقط على مجموعة البيانات؛ ويضيف الاستدلال تمريرات خلفية تكيّف الأوزان مع كل مدخل جديد.",
             "هذا يقلب الدورين: الانتشار العكسي وتحديث الأوزان من شأن التدريب، والاستدلال لا يغيّر الأوزان عادةً."),
            ("كلاهما يُجري تمريرات أمامية وخلفية مع تحديث الأوزان؛ ولا يختلفان إلا في مصدر المدخلات: مجموعة بيانات أو مستخدمون.",
             "هذا يخلط بين الاستدلال والتعلّم المستمر: الاستدلال المعتاد لا يُجري انتشارًا عكسيًا ولا يحدّث الأوزان، ولذلك يحتاج إلى حوسبة وذاكرة أقل بكثير."),
            ("يمكن للتدريب استخدام دقة منخفضة لتوفير الذاكرة، بينما يحتاج الاستدلال إلى دقة FP32 كاملة ليبقى النموذج المنشور دقيقًا.",
             "هذا يعكس متطلبات الدقة: يحتفظ التدريب عادةً بدقة أعلى (FP32، أو BF16 مع نسخة رئيسية من الأوزان بصيغة FP32) لتجميع التحديثات الصغيرة، بينما يتحمّل الاستدلال FP16 أو INT8 بل وحتى INT4."),
        ],
        "explanation": "يكرّر التدريب تمريرًا أماميًا، ثم يحسب الخسارة، وينشر التدرجات عكسيًا، ويحدّث الأوزان، في حين يُجري الاستدلال التمرير الأمامي للنموذج المكتمل فقط لإنتاج التنبؤات. والمشتّت الأكثر إغراءً، أي أن المرحلتين كلتيهما تحدّثان الأوزان، يخلط بين الاستدلال والتعلّم المستمر؛ فالاستدلال المعتاد يُبقي الأوزان ثابتة، ولهذا يحتاج إلى حوسبة وذاكرة أقل بكثير ويتحمّل دقة أدنى.",
    },
    "q002": {
        "stem": "أيٌّ مما يلي ليس سببًا في حاجة التدريب إلى ذاكرة أكبر بكثير من الاستدلال للنموذج نفسه؟",
        "options": [
            ("يخزّن التدريب تدرّجًا لكل وزن، وهو يشغل من الذاكرة قدر ما تشغله الأوزان نفسها.", None),
            ("تحتفظ المُحسِّنات مثل Adam بحالات إضافية لكل وزن (العزمان الأول والثاني) طوال التدريب.", None),
            ("يجب الاحتفاظ بتنشيطات التمرير الأمامي حتى يستخدمها التمرير الخلفي لحساب التدرجات.", None),
            ("تحتفظ كل خطوة بتدرجات جميع الخطوات السابقة، لأن مُحسِّنات الزخم تحتاج إلى هذا التاريخ.", None),
        ],
    },
}

AR_UI = {
    "site.skip": "انتقل إلى المحتوى الرئيسي",
    "site.language.nav": "اللغة",
    "site.language.choose": "اختر لغتك",
    "site.practice.heading": "التدرّب",
    "site.practice_all.title": "تدرّب على هذا الموضوع",
    "site.practice_all.desc": "كل أسئلة هذا الموضوع بترتيب عشوائي",
    "site.quiz.progress": "السؤال {current} من {total}",
    "site.quiz.quit": "العودة إلى الموضوع",
    "site.quiz.next": "السؤال التالي",
    "site.feedback.right": "إجابة صحيحة!",
    "site.feedback.wrong": "ليس تمامًا.",
    "site.keypoints.heading": "{title}: النقاط الرئيسية",
    "site.questions.heading": "كل أسئلة {title} ({count})",
}


def arabic(en: Bank) -> Bank:
    topic = en.topic.model_copy(update=AR_TOPIC)
    questions = []
    for q in en.questions:
        ar = AR_QUESTIONS.get(q.id)
        if ar:
            options = [
                o.model_copy(update={"text": text, **({"feedback": feedback} if feedback else {})})
                for o, (text, feedback) in zip(q.options, ar["options"])
            ]
            q = q.model_copy(update={"stem": ar["stem"], "options": options, **({"explanation": ar["explanation"]} if "explanation" in ar else {})})
        questions.append(q)
    return en.model_copy(update={"topic": topic, "questions": tuple(questions), "lang": "ar"})


def four_banks(count: int = COUNT) -> dict[str, Bank]:
    banks = {lang: b.model_copy(update={"questions": b.questions[:count]}) for lang, b in load_banks().items()}
    banks["ar"] = arabic(banks["en"])
    return banks


def four_options() -> ExportOptions:
    options = load_options()
    return replace(options, ui={**options.ui, "ar": AR_UI})
