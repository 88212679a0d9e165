#include "app/workbench.h"

#include "ui/attention/attentionlab.h"
#include "ui/charlm/charlmlab.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/word2vec/word2veclab.h"
#include "ui/workbench/mainwindow.h"

Labs addLabs(MainWindow *window)
{
    Labs labs;
    labs.attention = new AttentionLab(window);
    labs.selfAttention = new SelfAttentionLab(window);
    window->addLab(labs.attention);
    labs.word2vec = new Word2VecLab(window);
    window->addLab(labs.selfAttention);
    window->addLab(labs.word2vec);
    labs.charLm = new CharLmLab(window);
    window->addLab(labs.charLm);
    // The explorer can compute with the embeddings of the model the attention lab shows.
    QObject::connect(labs.attention, &AttentionLab::modelChanged, labs.selfAttention, &SelfAttentionLab::setModel);
    window->finishSetup();
    return labs;
}
